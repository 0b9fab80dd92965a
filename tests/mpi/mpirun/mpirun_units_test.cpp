/* mpirun's pure parts: options, hosts, placement, binding lists, failure messages, the /dev/shm sweep, the
 * reading of a process's state. */
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "failure.h"
#include "hosts.h"
#include "kv_address.h"
#include "mpirun_options.h"
#include "opal/binding.h"
#include "placement.h"
#include "proc_state.h"
#include "rank_env.h"
#include "shm_sweep.h"

using namespace tessera::mpirun;

namespace {

std::optional<Options> parse(std::vector<std::string> args, std::string *error)
{
    return parse_options(args, error);
}

} // namespace

TEST(MpirunOptions, TimeoutFromTheEnvironment)
{
    std::string error;
    ::setenv("MPIEXEC_TIMEOUT", "7", 1);
    auto o = parse({"prog"}, &error);
    ASSERT_TRUE(o) << error;
    EXPECT_DOUBLE_EQ(*o->timeout, 7);
    o = parse({"--timeout", "3", "prog"}, &error); /* the option wins */
    ASSERT_TRUE(o) << error;
    EXPECT_DOUBLE_EQ(*o->timeout, 3);
    ::setenv("MPIEXEC_TIMEOUT", "soon", 1);
    EXPECT_FALSE(parse({"prog"}, &error));
    EXPECT_EQ(error, "MPIEXEC_TIMEOUT (environment): 'soon' is not a number of seconds > 0");
    ::unsetenv("MPIEXEC_TIMEOUT");
    o = parse({"prog"}, &error);
    ASSERT_TRUE(o) << error;
    EXPECT_FALSE(o->timeout);
}

TEST(MpirunOptions, SpellingsAndProgram)
{
    std::string error;
    auto o = parse({"-np", "3", "--host", "a:2,b", "-H", "c", "--oversubscribe", "-x", "FOO", "-x", "BAR=1=2",
                    "--tag-output", "--timeout=2.5", "--bind-to", "core", "--report-bindings", "--mca", "x_y",
                    "1", "--tune=f.conf", "prog", "--mca", "not", "mine", "-np", "7"},
                   &error);
    ASSERT_TRUE(o) << error;
    ASSERT_EQ(o->apps.size(), 1u);
    EXPECT_EQ(o->apps[0].np, 3);
    EXPECT_EQ(o->apps[0].host_lists, (std::vector<std::string>{"a:2,b", "c"}));
    EXPECT_TRUE(o->oversubscribe);
    ASSERT_EQ(o->exports.size(), 2u);
    EXPECT_EQ(o->exports[0].name, "FOO");
    EXPECT_FALSE(o->exports[0].value);
    EXPECT_EQ(o->exports[1].name, "BAR");
    EXPECT_EQ(o->exports[1].value, "1=2");
    EXPECT_TRUE(o->tag_output);
    EXPECT_DOUBLE_EQ(*o->timeout, 2.5);
    EXPECT_EQ(o->bind_to, BindTo::Core);
    EXPECT_TRUE(o->report_bindings);
    EXPECT_EQ(o->mca_args, (std::vector<std::string>{"--mca", "x_y", "1", "--tune", "f.conf"}));
    /* The program's own arguments are never mpirun's, even when they look like its options. */
    EXPECT_EQ(o->apps[0].program, (std::vector<std::string>{"prog", "--mca", "not", "mine", "-np", "7"}));
}

TEST(MpirunOptions, DoubleDashEndsOptions)
{
    std::string error;
    auto o = parse({"-n", "2", "--", "-weird-program", "x"}, &error);
    ASSERT_TRUE(o) << error;
    EXPECT_EQ(o->apps[0].np, 2);
    EXPECT_EQ(o->apps[0].program, (std::vector<std::string>{"-weird-program", "x"}));
    o = parse({"--np=4", "--hostfile", "hf", "-c", "5", "a.out"}, &error);
    ASSERT_TRUE(o) << error;
    EXPECT_EQ(o->apps[0].np, 5); /* the last one wins */
    EXPECT_EQ(o->hostfile, "hf");
}

TEST(MpirunOptions, ApplicationContexts)
{
    std::string error;
    auto o = parse({"-genv", "G", "1", "--map-by", "node", "-np", "2", "-wdir", "d", "-env", "E", "x", "a", "--mca",
                    "b", ":", "-n", "1", "-host", "h", "-path", "/p", "b", "-x", ":", "--allow-run-as-root",
                    "-ppn", "2", "c"},
                   &error);
    ASSERT_TRUE(o) << error;
    ASSERT_EQ(o->apps.size(), 3u);
    EXPECT_EQ(o->apps[0].np, 2);
    EXPECT_EQ(o->apps[0].wdir, "d");
    ASSERT_EQ(o->apps[0].env.size(), 1u);
    EXPECT_EQ(o->apps[0].env[0].value, "x");
    EXPECT_EQ(o->apps[0].program, (std::vector<std::string>{"a", "--mca", "b"}));
    EXPECT_EQ(o->apps[1].host_lists, (std::vector<std::string>{"h"}));
    EXPECT_EQ(o->apps[1].path, "/p");
    EXPECT_EQ(o->apps[1].program, (std::vector<std::string>{"b", "-x"}));
    EXPECT_FALSE(o->apps[2].np);
    EXPECT_EQ(o->apps[2].program, (std::vector<std::string>{"c"}));
    EXPECT_EQ(o->map_by, MapBy::Node);
    EXPECT_EQ(o->per_node, 2);
    ASSERT_EQ(o->exports.size(), 1u);
    EXPECT_EQ(o->exports[0].name, "G");
}

TEST(MpirunOptions, Errors)
{
    std::string error;
    EXPECT_FALSE(parse({"--foo", "prog"}, &error));
    EXPECT_EQ(error, "unknown option --foo (see mpirun --help)");
    EXPECT_FALSE(parse({"--display-mpa", "prog"}, &error));
    EXPECT_EQ(error, "unknown option --display-mpa (see mpirun --help; did you mean --display-map?)");
    EXPECT_FALSE(parse({"-arch", "x86_64", "prog"}, &error));
    EXPECT_NE(error.find("cannot choose hosts by architecture"), std::string::npos) << error;
    EXPECT_FALSE(parse({"-np", "1", "a", ":"}, &error));
    EXPECT_EQ(error, "application context 2 has no program (contexts are separated by ':'; see mpirun --help)");
    EXPECT_FALSE(parse({"--map-by", "socket", "prog"}, &error));
    EXPECT_FALSE(parse({"--stdin", "x", "prog"}, &error));
    EXPECT_FALSE(parse({"-np", "0", "prog"}, &error));
    EXPECT_NE(error.find("-np: '0' is not a number of processes"), std::string::npos) << error;
    EXPECT_FALSE(parse({"-np", "2x", "prog"}, &error));
    EXPECT_FALSE(parse({"-np"}, &error));
    EXPECT_EQ(error, "option -np needs a value");
    EXPECT_FALSE(parse({"--mca", "a"}, &error));
    EXPECT_EQ(error, "option --mca needs a name and a value");
    EXPECT_FALSE(parse({"--timeout", "-1", "prog"}, &error));
    EXPECT_FALSE(parse({"--timeout", "nan", "prog"}, &error));
    EXPECT_FALSE(parse({"--bind-to", "socket", "prog"}, &error));
    EXPECT_NE(error.find("use core or none"), std::string::npos);
    EXPECT_FALSE(parse({"-x", "A-B", "prog"}, &error));
    EXPECT_FALSE(parse({"--oversubscribe=yes", "prog"}, &error));
    EXPECT_FALSE(parse({"-np", "2"}, &error));
    EXPECT_EQ(error, "no program to run (see mpirun --help)");
    EXPECT_TRUE(parse({"--help"}, &error));
    EXPECT_TRUE(parse({"--version"}, &error));
}

TEST(MpirunPlacement, ContextsNodesAndPerNode)
{
    std::string error;
    std::vector<Host> hosts = {{"a", 2, false}, {"b", 2, false}};
    PlaceOptions by_node;
    by_node.map_by = MapBy::Node;
    auto p = place_apps(hosts, {AppRequest{3, {}}}, by_node, &error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ((*p)[0].host, 0);
    EXPECT_EQ((*p)[1].host, 1);
    EXPECT_EQ((*p)[2].host, 0);
    EXPECT_EQ((*p)[2].local_rank, 1);
    /* the second context takes the slots the first left, on its own host */
    p = place_apps(hosts, {AppRequest{1, {}}, AppRequest{std::nullopt, {1}}}, PlaceOptions{}, &error);
    ASSERT_TRUE(p) << error;
    ASSERT_EQ(p->size(), 3u);
    EXPECT_EQ((*p)[0].app, 0);
    EXPECT_EQ((*p)[1].app, 1);
    EXPECT_EQ((*p)[1].host, 1);
    EXPECT_EQ((*p)[2].host, 1);
    PlaceOptions per_node;
    per_node.per_node = 3;
    p = place_apps(hosts, {AppRequest{std::nullopt, {}}}, per_node, &error);
    ASSERT_TRUE(p) << error;
    ASSERT_EQ(p->size(), 6u);
    EXPECT_EQ((*p)[2].host, 0);
    EXPECT_EQ((*p)[3].host, 1);
    EXPECT_FALSE(place_apps(hosts, {AppRequest{7, {}}}, per_node, &error));
    EXPECT_EQ(error, "7 ranks requested but 3 per host on 2 hosts leave room for 6");
}

TEST(MpirunHosts, HostList)
{
    std::string error;
    auto h = parse_host_list("a:4,b,c:1", &error);
    ASSERT_TRUE(h) << error;
    ASSERT_EQ(h->size(), 3u);
    EXPECT_EQ((*h)[0].name, "a");
    EXPECT_EQ((*h)[0].slots, 4);
    EXPECT_EQ((*h)[1].slots, 1);
    EXPECT_FALSE(parse_host_list("a:0", &error));
    EXPECT_FALSE(parse_host_list("a:x", &error));
    EXPECT_FALSE(parse_host_list("a,,b", &error));
    EXPECT_FALSE(parse_host_list("a,", &error));
    EXPECT_FALSE(parse_host_list("", &error));
}

TEST(MpirunHosts, Hostfile)
{
    std::string error;
    auto h = parse_hostfile_text("# cluster\n\nnode1 slots=4   # big one\n  node2\nnode3 slots=2\n", "hf", &error);
    ASSERT_TRUE(h) << error;
    ASSERT_EQ(h->size(), 3u);
    EXPECT_EQ((*h)[0].name, "node1");
    EXPECT_EQ((*h)[0].slots, 4);
    EXPECT_EQ((*h)[1].name, "node2");
    EXPECT_EQ((*h)[1].slots, 1);
    EXPECT_EQ((*h)[2].slots, 2);
    EXPECT_FALSE(parse_hostfile_text("a\nb slots=0\n", "hf", &error));
    EXPECT_NE(error.find("hf:2"), std::string::npos) << error;
    EXPECT_FALSE(parse_hostfile_text("a max=3\n", "hf", &error));
    EXPECT_NE(error.find("hf:1: unexpected 'max=3'"), std::string::npos) << error;
    EXPECT_FALSE(parse_hostfile_text("# nothing\n", "hf", &error));
    EXPECT_FALSE(parse_hostfile("/nonexistent/hostfile", &error));
    EXPECT_NE(error.find("cannot read /nonexistent/hostfile"), std::string::npos);
}

TEST(MpirunHosts, LocalityAndMerge)
{
    char name[256] = {};
    ASSERT_EQ(gethostname(name, sizeof name - 1), 0);
    EXPECT_TRUE(is_local_host("localhost"));
    EXPECT_TRUE(is_local_host("127.0.0.1"));
    EXPECT_TRUE(is_local_host(name));
    EXPECT_FALSE(is_local_host("127.0.0.2"));
    EXPECT_FALSE(is_local_host("no-such-host.invalid"));

    auto merged = merge_hosts({{"localhost", 2, false}, {"127.0.0.2", 1, false}, {name, 3, false},
                               {"127.0.0.2", 2, false}});
    ASSERT_EQ(merged.size(), 2u);
    EXPECT_EQ(merged[0].name, "localhost");
    EXPECT_EQ(merged[0].slots, 5);
    EXPECT_TRUE(merged[0].local);
    EXPECT_EQ(merged[1].name, "127.0.0.2");
    EXPECT_EQ(merged[1].slots, 3);
    EXPECT_FALSE(merged[1].local);
}

TEST(MpirunHosts, DefaultIsLocalhostWithOneSlotPerCore)
{
    Options o;
    std::string error;
    auto h = hosts_from_options(o, &error);
    ASSERT_TRUE(h) << error;
    ASSERT_EQ(h->size(), 1u);
    EXPECT_EQ((*h)[0].name, "localhost");
    EXPECT_EQ((*h)[0].slots, tessera::opal::core_count());
    EXPECT_GE((*h)[0].slots, 1);
}

TEST(MpirunPlacement, RoundRobinBySlot)
{
    std::string error;
    std::vector<Host> hosts = {{"a", 2, false}, {"b", 1, false}, {"c", 3, false}};
    auto p = place_ranks(hosts, 4, false, BindTo::None, &error);
    ASSERT_TRUE(p) << error;
    std::vector<int> host_of, local_rank, node;
    for (const RankPlacement &r : *p) {
        host_of.push_back(r.host);
        local_rank.push_back(r.local_rank);
        node.push_back(r.node_id);
        EXPECT_EQ(r.bind, "none");
        EXPECT_EQ(r.core, -1);
    }
    EXPECT_EQ(host_of, (std::vector<int>{0, 0, 1, 2}));
    EXPECT_EQ(local_rank, (std::vector<int>{0, 1, 0, 0}));
    EXPECT_EQ(node, (std::vector<int>{0, 0, 1, 2}));
    EXPECT_EQ((*p)[0].local_size, 2);
    EXPECT_EQ((*p)[3].local_size, 1);
}

TEST(MpirunPlacement, OversubscriptionWrapsAroundOrIsRefused)
{
    std::string error;
    std::vector<Host> hosts = {{"a", 2, false}, {"b", 1, false}};
    EXPECT_FALSE(place_ranks(hosts, 4, false, BindTo::None, &error));
    EXPECT_NE(error.find("4 ranks requested but only 3 slots available (a: 2, b: 1)"), std::string::npos) << error;
    EXPECT_NE(error.find("--oversubscribe"), std::string::npos);
    auto p = place_ranks(hosts, 7, true, BindTo::None, &error);
    ASSERT_TRUE(p) << error;
    std::vector<int> host_of;
    for (const RankPlacement &r : *p) {
        host_of.push_back(r.host);
    }
    EXPECT_EQ(host_of, (std::vector<int>{0, 0, 1, 0, 0, 1, 0}));
    EXPECT_EQ((*p)[6].local_rank, 4);
    EXPECT_EQ((*p)[6].local_size, 5);
    EXPECT_EQ((*p)[5].local_size, 2);
}

TEST(MpirunPlacement, NodeIdsSkipUnusedHosts)
{
    std::string error;
    std::vector<Host> hosts = {{"a", 2, false}, {"b", 2, false}};
    auto p = place_ranks(hosts, 2, false, BindTo::None, &error);
    ASSERT_TRUE(p);
    EXPECT_EQ((*p)[1].node_id, 0);
}

TEST(MpirunPlacement, BindToCoreRoundRobinOverCores)
{
    std::string error;
    const int cores = tessera::opal::core_count();
    std::vector<Host> hosts = {{"localhost", 1, true}};
    auto p = place_ranks(hosts, cores + 1, true, BindTo::Core, &error);
    ASSERT_TRUE(p) << error;
    for (const RankPlacement &r : *p) {
        const tessera::opal::CoreInfo core = tessera::opal::host_cores()[static_cast<size_t>(r.rank % cores)];
        EXPECT_EQ(r.core, core.core);
        EXPECT_EQ(r.bind, tessera::opal::format_pu_list(core.pus));
        EXPECT_EQ(describe_binding(r, hosts),
                  "rank " + std::to_string(r.rank) + " bound to core " + std::to_string(core.core) + " (PUs " +
                      r.bind + ")");
    }
}

TEST(OpalBinding, PuLists)
{
    using tessera::opal::parse_pu_list;
    EXPECT_EQ(parse_pu_list("0,1"), (std::vector<unsigned>{0, 1}));
    EXPECT_EQ(parse_pu_list("0-2,7"), (std::vector<unsigned>{0, 1, 2, 7}));
    EXPECT_EQ(parse_pu_list("5"), (std::vector<unsigned>{5}));
    EXPECT_FALSE(parse_pu_list(""));
    EXPECT_FALSE(parse_pu_list("1,"));
    EXPECT_FALSE(parse_pu_list("3-1"));
    EXPECT_FALSE(parse_pu_list("-1"));
    EXPECT_FALSE(parse_pu_list("a"));
    EXPECT_FALSE(parse_pu_list("0-99999999"));
    EXPECT_EQ(tessera::opal::format_pu_list({0, 1, 5}), "0,1,5");
}

TEST(OpalBinding, BindsTheCallingProcess)
{
    const std::string before = tessera::opal::current_binding();
    const tessera::opal::CoreInfo last = tessera::opal::host_cores().back();
    std::string error;
    ASSERT_EQ(tessera::opal::bind_to_pus(tessera::opal::format_pu_list(last.pus), &error), 0) << error;
    EXPECT_EQ(tessera::opal::parse_pu_list(tessera::opal::current_binding()), last.pus);
    EXPECT_EQ(tessera::opal::bind_to_pus("100000", &error), -1);
    EXPECT_NE(error.find("PU 100000"), std::string::npos) << error;
    EXPECT_EQ(tessera::opal::bind_to_pus("x", &error), -1);
    EXPECT_NE(error.find("malformed"), std::string::npos) << error;
    ASSERT_EQ(tessera::opal::bind_to_pus(before, &error), 0) << error;
    EXPECT_EQ(tessera::opal::current_binding(), before);
}

TEST(MpirunFailure, MessagesAndStatuses)
{
    RankEnd end;
    end.rank = 2;
    end.host = "localhost";
    end.exit.exited = 1;
    end.exit.code = 3;
    end.mpi_job = true;
    end.others_running = true;
    auto f = failure_from_exit(end);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->status, 3);
    EXPECT_EQ(f->message,
              "mpirun: rank 2 on host localhost exited with status 3 before MPI_Finalize; terminating the job");

    end.exit.code = 0;
    f = failure_from_exit(end);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->status, 1);
    end.finalized = true;
    EXPECT_FALSE(failure_from_exit(end));
    end.finalized = false;
    end.mpi_job = false; /* not an MPI program: ending early is its business */
    EXPECT_FALSE(failure_from_exit(end));

    end.exit = {};
    end.exit.signaled = 1;
    end.exit.signal = SIGKILL;
    f = failure_from_exit(end);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->status, 137);
    EXPECT_EQ(f->message, "mpirun: rank 2 on host localhost was killed by signal 9 (Killed); terminating the job");

    Failure a = failure_from_abort(1, "h", 7, "bad input", true);
    EXPECT_EQ(a.status, 7);
    EXPECT_EQ(a.message, "mpirun: rank 1 on host h ended the job with status 7: bad input; terminating the job");
    /* An application's error class (16384) or MPI_Abort(comm, 256): never a successful exit. */
    EXPECT_EQ(failure_from_abort(0, "h", 16384, "", false).status, 1);
    EXPECT_EQ(failure_from_abort(0, "h", 256 + 3, "", false).status, 3);
    EXPECT_EQ(failure_from_timeout(5).message, "mpirun: job timed out after 5 s; terminating the job");
    EXPECT_EQ(failure_from_timeout(5).status, 124);
    EXPECT_EQ(failure_from_signal(SIGINT).status, 130);
}

TEST(MpirunRankEnv, ExportsAndContract)
{
    setenv("MPIRUN_TEST_EXPORTED", "from mpirun", 1);
    unsetenv("MPIRUN_TEST_UNSET");
    std::string error;
    auto e = export_entries({{"MPIRUN_TEST_EXPORTED", std::nullopt}, {"A", "b=c"}, {"MPIRUN_TEST_UNSET", std::nullopt}},
                            &error);
    ASSERT_TRUE(e) << error;
    EXPECT_EQ(*e, (std::vector<std::string>{"MPIRUN_TEST_EXPORTED=from mpirun", "A=b=c"}));
    EXPECT_FALSE(export_entries({{"TESSERA_RANK", "3"}}, &error));
    EXPECT_NE(error.find("TESSERA_RANK"), std::string::npos);

    JobEnv job;
    job.jobid = 42;
    job.size = 3;
    job.job_key = std::string(64, 'a');
    job.exports = {"A=1"};
    RankPlacement p;
    p.rank = 1;
    p.local_rank = 1;
    p.local_size = 3;
    p.bind = "0";
    auto env = rank_environment(job, p, {"localhost", 3, true}, "127.0.0.1:5");
    auto has = [&env](const std::string &entry) { return std::find(env.begin(), env.end(), entry) != env.end(); };
    EXPECT_TRUE(has("A=1"));
    EXPECT_TRUE(has("TESSERA_JOBID=42"));
    EXPECT_TRUE(has("TESSERA_RANK=1"));
    EXPECT_TRUE(has("TESSERA_SIZE=3"));
    EXPECT_TRUE(has("TESSERA_LOCAL_RANK=1"));
    EXPECT_TRUE(has("TESSERA_LOCAL_SIZE=3"));
    EXPECT_TRUE(has("TESSERA_NODE_ID=0"));
    EXPECT_TRUE(has("TESSERA_HOST=localhost"));
    EXPECT_TRUE(has("TESSERA_KV_URI=127.0.0.1:5"));
    EXPECT_TRUE(has("TESSERA_JOB_KEY=" + std::string(64, 'a')));
    EXPECT_TRUE(has("TESSERA_BIND=0"));
    EXPECT_EQ(new_jobid() & 0x80000000u, 0u);
}

TEST(MpirunKvAddress, LoopbackHostsConnectTo127001)
{
    std::string error;
    auto a = kv_addresses({{"localhost", 1, true}, {"127.0.0.2", 1, false}}, &error);
    ASSERT_TRUE(a) << error;
    EXPECT_EQ(a->bind_address, "127.0.0.1");
    EXPECT_EQ(a->connect_to, (std::vector<std::string>{"127.0.0.1", "127.0.0.1"}));
    EXPECT_EQ(kv_uri_for("127.0.0.1", "0.0.0.0:4711"), "127.0.0.1:4711");
    EXPECT_FALSE(kv_addresses({{"no-such-host.invalid", 1, false}}, &error));
    EXPECT_NE(error.find("cannot resolve host no-such-host.invalid"), std::string::npos) << error;
}

TEST(MpirunShmSweep, RemovesOnlyTheJobsEntries)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("mpirun-sweep-" + std::to_string(getpid()));
    fs::create_directories(dir);
    for (const char *name : {"tessera-77-a", "tessera-77-seg.1", "sem.tessera-77-lock", "tessera-770-a",
                             "tessera-7-a", "other"}) {
        std::ofstream(dir / name) << "x";
    }
    EXPECT_EQ(shm_prefix(77), "tessera-77-");
    EXPECT_EQ(sweep_shm(77, dir.string()), 3);
    std::vector<std::string> left;
    for (const auto &e : fs::directory_iterator(dir)) {
        left.push_back(e.path().filename().string());
    }
    std::sort(left.begin(), left.end());
    EXPECT_EQ(left, (std::vector<std::string>{"other", "tessera-7-a", "tessera-770-a"}));
    fs::remove_all(dir);
}

TEST(MpirunProcState, DyingIsExitingOrZombie)
{
    /* flags is the 9th field; PF_EXITING is 0x4. A command name may hold spaces and parentheses. */
    EXPECT_FALSE(stat_says_dying("42 (rank) R 1 42 42 0 -1 4194304 100 0 0 0"));
    EXPECT_TRUE(stat_says_dying("42 (rank) R 1 42 42 0 -1 4194308 100 0 0 0"));
    EXPECT_TRUE(stat_says_dying("42 (a (b) c) Z 1 42 42 0 -1 4194304 100 0 0 0"));
    EXPECT_TRUE(stat_says_dying("42 (x) S) D 1 42 42 0 -1 4 0"));
    EXPECT_FALSE(stat_says_dying("42 (rank) S 1 42"));
    EXPECT_FALSE(stat_says_dying("garbage"));
    EXPECT_FALSE(process_dying(getpid()));

    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        _exit(0);
    }
    /* Not reaped yet: a zombie, which is dying. */
    for (int i = 0; i < 200 && !process_dying(child); ++i) {
        usleep(5000);
    }
    EXPECT_TRUE(process_dying(child));
    waitpid(child, nullptr, 0);
    EXPECT_FALSE(process_dying(child));
}
