# SPDX-License-Identifier: GPL-2.0-only
# EBPFTOP_CHECK_CFLAG(FLAG, ACTION-IF-OK)
# Try to compile an empty program with FLAG (and -Werror, so that
# "unknown warning option" notes count as failure).
AC_DEFUN([EBPFTOP_CHECK_CFLAG], [
	AC_MSG_CHECKING([whether $CC accepts $1])
	ebpftop_save_cflags=$CFLAGS
	CFLAGS="$CFLAGS -Werror $1"
	AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
		[AC_MSG_RESULT([yes]); $2],
		[AC_MSG_RESULT([no])])
	CFLAGS=$ebpftop_save_cflags
])
