// SPDX-License-Identifier: GPL-2.0-only
/*
 * ebpftop --demo, end to end, as root: in batch JSON mode the classifier
 * runs (at least 1,000 runs/s once warm, run_cnt growing) in native XDP
 * mode inside a namespace of its own, and its class counters fill up (read
 * with bpftool while it runs); after a normal exit (-n), SIGTERM and
 * SIGKILL nothing is left: no veth in the host namespace, not our
 * classifier, no process holding our namespace. Only our own objects are
 * checked: other demos may run on the machine at the same time.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

/* The demo's interface names (src/demo/demo.c), in its own namespace. */
#define DEMO_IF_PREFIX "ebpftop-demo-"
#define MIN_RUNS_PER_S 1000.0
#define GONE_TIMEOUT_MS 10000

static char ebpftop[4096];
/* The ebpftop under test; the teardown kills it if a test failed early. */
static struct tu_proc child;

/* No child: what tu_proc_free leaves alone. */
static void no_child(void)
{
	memset(&child, 0, sizeof(child));
	child.in = child.out = child.err = -1;
}

static int kill_child(void **state)
{
	tu_proc_free(&child);
	no_child();
	return 0;
}

/* Tools, with their full paths (tu_spawn does not search PATH). */
static char bpftool[4096], ip[4096], nsenter[4096];

/* @name in $PATH or the sbin directories, into @buf; false if nowhere. */
static bool find_tool(const char *name, char *buf, size_t len)
{
	static const char *const sbin = ":/usr/local/sbin:/usr/sbin:/sbin";
	char dirs[8192];
	const char *p = dirs;

	snprintf(dirs, sizeof(dirs), "%s%s",
		 getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin", sbin);
	while (*p) {
		size_t n = strcspn(p, ":");

		snprintf(buf, len, "%.*s/%s", (int)n, p, name);
		if (n && !access(buf, X_OK))
			return true;
		p += n + (p[n] == ':');
	}
	buf[0] = '\0';
	return false;
}

static int setup(void **state)
{
	tu_require_bpf();
	if (!find_tool("bpftool", bpftool, sizeof(bpftool)))
		tu_skip("bpftool is not installed (apt-get install bpftool)");
	if (!find_tool("ip", ip, sizeof(ip)))
		tu_skip("ip is not installed (apt-get install iproute2)");
	find_tool("nsenter", nsenter, sizeof(nsenter));
	if (access("/proc/thread-self/ns/net", R_OK))
		tu_skip("no network namespaces here");
	tu_builddir_path("ebpftop", ebpftop, sizeof(ebpftop));
	no_child();
	tu_lock();
	return 0;
}

/* Run a command, its stdout in *out; fails the test if it does not exit 0. */
static char *run_ok(char *const argv[])
{
	char *out = NULL, *err = NULL;
	int code = tu_run(argv, NULL, 20000, &out, &err);

	if (code != 0)
		fail_msg("%s %s exited with %d: %s", argv[0],
			 argv[1] ? argv[1] : "", code, err ? err : "");
	free(err);
	return out;
}

static struct json_object *run_json(char *const argv[])
{
	char *out = run_ok(argv);
	struct json_object *o = json_tokener_parse(out);

	if (!o)
		fail_msg("%s printed no JSON: %s", argv[0], out);
	free(out);
	return o;
}

/* Host interfaces named like the demo's, " name" each, in @buf. */
static void host_demo_links(char *buf, size_t len)
{
	char *argv[] = { ip, (char *)"-o", (char *)"link", (char *)"show",
			 NULL };
	char *out = NULL;
	char *line, *save = NULL;

	buf[0] = '\0';
	if (tu_run(argv, NULL, 10000, &out, NULL) != 0)
		fail_msg("ip -o link show failed");
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = strstr(line, DEMO_IF_PREFIX);

		if (p)
			snprintf(buf + strlen(buf), len - strlen(buf), " %.*s",
				 (int)strcspn(p, ":@ "), p);
	}
	free(out);
}

/*
 * The program behind the XDP link that process @pid holds, or 0. ebpftop
 * holds an fd on every program it lists, other demos' classifiers
 * included, but a link only on its own.
 */
static uint32_t demo_link_prog(pid_t pid)
{
	char path[64], fdpath[320], link[64], buf[1024];
	struct dirent *de;
	uint32_t id = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!id && (de = readdir(d))) {
		ssize_t n;
		char *s;
		int f;

		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, de->d_name);
		n = readlink(fdpath, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (strcmp(link, "anon_inode:bpf_link"))
			continue;
		snprintf(fdpath, sizeof(fdpath), "/proc/%d/fdinfo/%s", (int)pid,
			 de->d_name);
		f = open(fdpath, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			continue;
		n = read(f, buf, sizeof(buf) - 1);
		close(f);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		s = strstr(buf, "prog_id:");
		if (strstr(buf, "link_type:\txdp") && s)
			id = (uint32_t)strtoul(s + strlen("prog_id:"), NULL, 10);
	}
	closedir(d);
	return id;
}

/* Whether @rec lists program @id under the name xdp_classifier. */
static bool record_has_classifier(struct json_object *rec, uint32_t id)
{
	struct json_object *p = tu_record_prog(rec, id);
	struct json_object *name = tu_get(p, "name");

	return name && !strcmp(json_object_get_string(name), "xdp_classifier");
}

/*
 * The network namespace file @pid holds ("net:[inode]") and the fd number
 * that holds it; fails unless it differs from ours.
 */
static void demo_netns(pid_t pid, char *target, size_t len, int *fd_out)
{
	char path[64], self[64] = "", link[256];
	struct dirent *de;
	ssize_t n;
	DIR *d;

	n = readlink("/proc/self/ns/net", self, sizeof(self) - 1);
	if (n > 0)
		self[n] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	assert_non_null(d);
	target[0] = '\0';
	while ((de = readdir(d))) {
		char fdpath[320];

		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, de->d_name);
		n = readlink(fdpath, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (!strncmp(link, "net:[", 5)) {
			snprintf(target, len, "%s", link);
			*fd_out = atoi(de->d_name);
			break;
		}
	}
	closedir(d);
	if (!target[0])
		fail_msg("ebpftop --demo (pid %d) holds no network namespace fd",
			 (int)pid);
	if (!strcmp(target, self))
		fail_msg("the demo's namespace %s is the host's", target);
}

/* Whether an entry of directory @dir (links) reads @target. */
static bool dir_has_link(const char *dir, const char *suffix,
			 const char *target)
{
	struct dirent *de;
	bool hit = false;
	DIR *d = opendir(dir);

	while (d && !hit && (de = readdir(d))) {
		char path[600], link[256];
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s%s", dir, de->d_name, suffix);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			hit = !strcmp(link, target);
		}
	}
	if (d)
		closedir(d);
	return hit;
}

/*
 * Processes with a thread in namespace @target, or an fd on it. Other
 * ebpftop processes are left out: a namespace's inode number is reused
 * once it is freed, and other demos may be running on the machine.
 */
static size_t netns_holders(const char *target, char *who, size_t len)
{
	struct dirent *de;
	size_t found = 0;
	DIR *d = opendir("/proc");

	who[0] = '\0';
	while (d && (de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name);
		char dir[64], comm[32];

		if (pid <= 0 || pid == getpid() ||
		    !strcmp(tu_comm(pid, comm, sizeof(comm)), "ebpftop"))
			continue;
		snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
		if (!dir_has_link(dir, "/ns/net", target)) {
			snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
			if (!dir_has_link(dir, "", target))
				continue;
		}
		found++;
		snprintf(who + strlen(who), len - strlen(who), " %s(%d)", comm,
			 (int)pid);
	}
	if (d)
		closedir(d);
	return found;
}

/* Nothing of the demo with classifier @id and namespace @netns is left. */
static void check_gone(const char *how, uint32_t id, const char *netns)
{
	int64_t deadline = tu_now_ms() + GONE_TIMEOUT_MS;
	char who[1024], links[512];

	if (!tu_wait_prog_gone(id, GONE_TIMEOUT_MS, who, sizeof(who)))
		fail_msg("after %s: xdp_classifier (id %u) is still loaded, held by:%s",
			 how, id, who);
	while (netns_holders(netns, who, sizeof(who))) {
		if (tu_now_ms() > deadline)
			fail_msg("after %s: the demo's namespace %s is still held by:%s",
				 how, netns, who);
		tu_sleep_ms(100);
	}
	/* Nothing was ever in the host namespace; check it stays so. */
	host_demo_links(links, sizeof(links));
	if (links[0])
		fail_msg("after %s: demo interfaces in the host namespace:%s",
			 how, links);
	printf("# after %s: classifier %u gone, namespace %s released, no demo interface in the host\n",
	       how, id, netns);
}

/* Start ebpftop --demo -j -d 0.5, with -n @iterations unless NULL. */
static void spawn_demo(struct tu_proc *p, const char *iterations)
{
	char *argv[] = { ebpftop, (char *)"--demo", (char *)"-j",
			 (char *)"-d", (char *)"0.5", (char *)"-n",
			 (char *)iterations, NULL };

	if (!iterations)
		argv[5] = NULL;
	if (tu_spawn(p, argv, NULL, false))
		fail_msg("cannot start %s", ebpftop);
}

/* Read the first record; our classifier's id and namespace. */
static uint32_t first_record(struct tu_proc *p, char *netns, size_t len,
			     int *nsfd)
{
	struct json_object *rec = tu_next_record(p, 15000, NULL);
	uint32_t id;

	if (!rec) {
		char *e = tu_stderr(p);

		tu_wait(p, 2000);
		fail_msg("ebpftop --demo printed no record (exit %d): %s",
			 tu_exit_code(p), e);
	}
	id = demo_link_prog(p->pid);
	if (!id)
		fail_msg("ebpftop --demo (pid %d) holds no XDP link", (int)p->pid);
	if (!record_has_classifier(rec, id))
		fail_msg("the first record does not list the demo's xdp_classifier (id %u)",
			 id);
	json_object_put(rec);
	demo_netns(p->pid, netns, len, nsfd);
	return id;
}

/* A number as bpftool prints it: plain, or little-endian "0x.." bytes. */
static uint64_t json_number(struct json_object *o)
{
	uint64_t v = 0;

	if (o && json_object_is_type(o, json_type_int))
		return (uint64_t)json_object_get_int64(o);
	if (!o || !json_object_is_type(o, json_type_array))
		fail_msg("bpftool printed an unexpected value");
	for (size_t i = json_object_array_length(o); i-- > 0;)
		v = v << 8 | strtoul(json_object_get_string(
					     json_object_array_get_idx(o, i)),
				     NULL, 16);
	return v;
}

/* The class counters of the classifier @id, summed over CPUs, by bpftool. */
static void class_counts(uint32_t id, uint64_t counts[5])
{
	char ids[16], mid[16];
	char *prog_argv[] = { bpftool, (char *)"-j", (char *)"prog",
			      (char *)"show", (char *)"id", ids, NULL };
	struct json_object *prog, *maps;
	size_t nmaps;
	bool found = false;

	memset(counts, 0, 5 * sizeof(counts[0]));
	snprintf(ids, sizeof(ids), "%u", id);
	prog = run_json(prog_argv);
	maps = tu_get(prog, "map_ids");
	nmaps = maps ? json_object_array_length(maps) : 0;
	for (size_t i = 0; i < nmaps && !found; i++) {
		char *show_argv[] = { bpftool, (char *)"-j", (char *)"map",
				      (char *)"show", (char *)"id", mid, NULL };
		char *dump_argv[] = { bpftool, (char *)"-j", (char *)"map",
				      (char *)"dump", (char *)"id", mid, NULL };
		struct json_object *m, *dump, *name;

		snprintf(mid, sizeof(mid), "%d",
			 json_object_get_int(json_object_array_get_idx(maps, i)));
		m = run_json(show_argv);
		name = tu_get(m, "name");
		found = name && !strcmp(json_object_get_string(name),
					"xdpc_counts");
		json_object_put(m);
		if (!found)
			continue;
		dump = run_json(dump_argv);
		for (size_t k = 0; k < json_object_array_length(dump); k++) {
			struct json_object *e = json_object_array_get_idx(dump, k);
			struct json_object *vals;
			uint64_t key = 0;

			/* Raw bytes, and with BTF a "formatted" copy. */
			if (tu_get(e, "formatted"))
				e = tu_get(e, "formatted");
			vals = tu_get(e, "values");
			key = json_number(tu_get(e, "key"));
			assert_true(key < 5);
			for (size_t c = 0; vals && c < json_object_array_length(vals);
			     c++)
				counts[key] += json_number(tu_get(
					json_object_array_get_idx(vals, c),
					"value"));
		}
		json_object_put(dump);
	}
	json_object_put(prog);
	if (!found)
		fail_msg("program %u has no map named xdpc_counts", id);
}

/* The receiving end carries the classifier in driver (native) mode. */
static void check_native(pid_t pid, int nsfd, uint32_t id)
{
	char net[64], *out;
	char *argv[] = { nsenter, net, ip, (char *)"-o", (char *)"link",
			 (char *)"show", (char *)"ebpftop-demo-rx", NULL };
	char want[32];

	if (!nsenter[0]) {
		printf("# nsenter missing: native mode not checked\n");
		return;
	}
	snprintf(net, sizeof(net), "--net=/proc/%d/fd/%d", (int)pid, nsfd);
	out = run_ok(argv);
	snprintf(want, sizeof(want), "prog/xdp id %u", id);
	if (!strstr(out, " xdp ") || strstr(out, "xdpgeneric") ||
	    !strstr(out, want))
		fail_msg("the classifier is not attached in native mode: %s",
			 out);
	free(out);
}

static void test_batch_json(void **state)
{
	static const char *const names[5] = { "fizzbuzz", "fizz", "buzz",
					      "fibonacci", "other" };
	char netns[256], links[512];
	uint64_t last_cnt = 0, counts[5];
	struct tu_proc *p = &child;
	uint32_t id;
	int nsfd = -1, records = 1;

	spawn_demo(p, "8");
	id = first_record(p, netns, sizeof(netns), &nsfd);
	check_native(p->pid, nsfd, id);
	host_demo_links(links, sizeof(links));
	if (links[0])
		fail_msg("demo interfaces in the host namespace:%s", links);

	for (;;) {
		struct json_object *rec = tu_next_record(p, 10000, NULL);
		struct json_object *prog;
		uint64_t cnt;
		double rps;

		if (!rec)
			break;
		records++;
		prog = tu_record_prog(rec, id);
		if (!prog)
			fail_msg("record %d lacks the classifier %u", records, id);
		if (!tu_u64(prog, "run_cnt", &cnt))
			fail_msg("record %d: no run_cnt", records);
		rps = tu_num(prog, "runs_per_s");
		printf("# record %d: run_cnt %llu, runs_per_s %.0f, ns_per_run %.1f\n",
		       records, (unsigned long long)cnt, rps,
		       tu_num(prog, "ns_per_run"));
		if (cnt <= last_cnt)
			fail_msg("record %d: run_cnt %llu did not grow from %llu",
				 records, (unsigned long long)cnt,
				 (unsigned long long)last_cnt);
		last_cnt = cnt;
		/* Warm-up: the first interval and the one after it. */
		if (records >= 3 && !(rps >= MIN_RUNS_PER_S))
			fail_msg("record %d: %.1f runs/s, want at least %.0f",
				 records, rps, MIN_RUNS_PER_S);
		if (records == 4) {
			class_counts(id, counts);
			printf("# class counters:");
			for (int k = 0; k < 5; k++) {
				printf(" %s %llu", names[k],
				       (unsigned long long)counts[k]);
				if (!counts[k])
					fail_msg("class %s was never counted",
						 names[k]);
			}
			printf("\n");
		}
		json_object_put(rec);
	}
	if (!tu_wait(p, 10000))
		fail_msg("ebpftop --demo -n 8 did not exit");
	if (tu_exit_code(p) != 0)
		fail_msg("ebpftop --demo -n 8 exited with %d: %s",
			 tu_exit_code(p), tu_stderr(p));
	assert_int_equal(records, 8);
	tu_proc_free(p);
	check_gone("-n 8", id, netns);
}

static void test_signal(int sig, const char *how)
{
	char netns[256];
	struct tu_proc *p = &child;
	struct json_object *rec;
	uint32_t id;
	int nsfd;

	spawn_demo(p, NULL);
	id = first_record(p, netns, sizeof(netns), &nsfd);
	rec = tu_next_record(p, 10000, NULL);
	if (!rec)
		fail_msg("no second record");
	json_object_put(rec);
	tu_signal(p, sig);
	if (!tu_wait(p, 10000))
		fail_msg("ebpftop --demo did not exit after %s", how);
	if (sig == SIGKILL ? tu_exit_code(p) != 128 + SIGKILL :
			     tu_exit_code(p) != 0)
		fail_msg("ebpftop --demo exited with %d after %s",
			 tu_exit_code(p), how);
	tu_proc_free(p);
	check_gone(how, id, netns);
}

static void test_sigterm(void **state)
{
	test_signal(SIGTERM, "SIGTERM");
}

static void test_sigkill(void **state)
{
	test_signal(SIGKILL, "SIGKILL");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_batch_json, kill_child),
		cmocka_unit_test_teardown(test_sigterm, kill_child),
		cmocka_unit_test_teardown(test_sigkill, kill_child),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
