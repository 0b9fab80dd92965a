// The forked job of the btl tcp tests (tcp_job.h).
#include "tests/unit/btl_tcp/tcp_job.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "mca/report.h"
#include "mca/var_store.h"
#include "ompi/proc/modex.h"

namespace tcptest {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxRanks = 8;
constexpr int kMaxCards = 4;

struct SharedCard {
    char key[32];
    uint32_t len;
    char data[1024];
};

// Lives in a shared anonymous mapping: every rank sees every rank's cards.
struct Shared {
    std::atomic<int> arrived;
    std::atomic<int> generation;
    std::atomic<int> cards_put[kMaxRanks];
    SharedCard cards[kMaxRanks][kMaxCards];
    char message[kMaxRanks][2048];
    char note[kMaxRanks][2048];
};

Shared *shared = nullptr;
int job_size = 0;
int my_rank = 0;

int modex_put(void *, const char *key, const void *data, size_t len)
{
    const int n = shared->cards_put[my_rank].load();
    if (n >= kMaxCards || len > sizeof shared->cards[0][0].data || std::strlen(key) >= sizeof shared->cards[0][0].key) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    SharedCard &c = shared->cards[my_rank][n];
    std::strcpy(c.key, key);
    c.len = static_cast<uint32_t>(len);
    std::memcpy(c.data, data, len);
    shared->cards_put[my_rank].store(n + 1);
    return TESSERA_SUCCESS;
}

int modex_get(void *, uint32_t rank, const char *key, const void **data, size_t *len)
{
    if (rank >= static_cast<uint32_t>(job_size)) {
        return TESSERA_ERR_NOT_FOUND;
    }
    for (int i = 0; i < shared->cards_put[rank].load(); ++i) {
        const SharedCard &c = shared->cards[rank][i];
        if (std::strcmp(c.key, key) == 0) {
            *data = c.data;
            *len = c.len;
            return TESSERA_SUCCESS;
        }
    }
    return TESSERA_ERR_NOT_FOUND;
}

bool wait_barrier(double timeout, bool progress)
{
    const int generation = shared->generation.load();
    if (shared->arrived.fetch_add(1) + 1 == job_size) {
        shared->arrived.store(0);
        shared->generation.fetch_add(1);
        return true;
    }
    const auto until = Clock::now() + std::chrono::duration<double>(timeout);
    while (shared->generation.load() == generation) {
        if (Clock::now() > until) {
            return false;
        }
        if (!progress || mca_btl_base_progress() == 0) {
            sched_yield();
        }
    }
    return true;
}

std::string host_name()
{
    char buf[256] = {};
    gethostname(buf, sizeof buf - 1);
    return buf;
}

std::string run_rank(const Options &o, int rank, const Body &body)
{
    for (const auto &[name, value] : o.params) {
        tessera::mca::set_command_line(name, value);
    }
    const bool btl_given = std::any_of(o.params.begin(), o.params.end(), [](const auto &p) { return p.first == "btl"; });
    if (!btl_given) {
        tessera::mca::set_command_line("btl", "self,tcp");
    }
    std::vector<std::string> hosts = o.hosts;
    hosts.resize(static_cast<size_t>(o.size), host_name());
    const tessera_job_info_t info{
        .singleton = false,
        .jobid = kJobId,
        .rank = static_cast<uint32_t>(rank),
        .size = static_cast<uint32_t>(o.size),
        .local_rank = static_cast<uint32_t>(rank),
        .local_size = static_cast<uint32_t>(o.size),
        .node_id = static_cast<uint32_t>(std::find(hosts.begin(), hosts.end(), hosts[static_cast<size_t>(rank)]) -
                                         hosts.begin()),
        .host = hosts[static_cast<size_t>(rank)].c_str(),
        .job_key = kJobKey,
    };
    const tessera_modex_ops_t ops{modex_put, modex_get, nullptr};
    tessera_modex_install(&info, &ops);
    if (tessera::mca::framework_register(&mca_btl_base_framework) != TESSERA_SUCCESS ||
        tessera::mca::framework_open(&mca_btl_base_framework) != TESSERA_SUCCESS ||
        tessera_btl_base_select(false, o.mpi_threads) != TESSERA_SUCCESS) {
        return "the btl framework did not open";
    }
    if (!wait_barrier(20, false)) {
        return "the fence timed out";
    }
    Rank r;
    r.rank = rank;
    r.size = o.size;
    for (int p = 0; p < o.size; ++p) {
        uint32_t flags = 0;
        if (hosts[static_cast<size_t>(p)] == hosts[static_cast<size_t>(rank)]) {
            flags |= TESSERA_PROC_ON_NODE;
        }
        if (p == rank) {
            flags |= TESSERA_PROC_IS_SELF;
        }
        r.procs.push_back(tessera_proc_create({kJobId, static_cast<uint32_t>(p)}, hosts[static_cast<size_t>(p)].c_str(), flags));
    }
    if (mca_btl_base_add_procs(r.procs.data(), r.procs.size()) != TESSERA_SUCCESS) {
        return "some rank is unreachable";
    }
    std::string result = body(r);
    if (r.final_barrier && !r.barrier() && result.empty()) {
        result = "the final barrier timed out";
    }
    mca_btl_base_del_procs(r.procs.data(), r.procs.size());
    tessera::mca::framework_close(&mca_btl_base_framework);
    for (tessera_proc_t *p : r.procs) {
        tessera_proc_destroy(p);
    }
    tessera_modex_install(nullptr, nullptr);
    return result;
}

} // namespace

void Rank::note(const std::string &text)
{
    std::snprintf(shared->note[rank], sizeof shared->note[rank], "%s", text.c_str());
}

bool Rank::barrier(double timeout)
{
    return wait_barrier(timeout, true);
}

std::vector<Outcome> run_job(const Options &o, const Body &body)
{
    std::vector<Outcome> out(static_cast<size_t>(o.size));
    if (o.size < 1 || o.size > kMaxRanks) {
        out.assign(1, Outcome{});
        out[0].message = "bad job size";
        return out;
    }
    void *mem = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        out[0].message = "mmap failed";
        return out;
    }
    shared = new (mem) Shared{};
    job_size = o.size;
    std::fflush(nullptr);
    std::vector<pid_t> pids;
    for (int rank = 0; rank < o.size; ++rank) {
        const pid_t pid = fork();
        if (pid == 0) {
            my_rank = rank;
            const std::string result = run_rank(o, rank, body);
            std::snprintf(shared->message[rank], sizeof shared->message[rank], "%s", result.c_str());
            std::fflush(nullptr);
            _exit(result.empty() ? 0 : 1);
        }
        pids.push_back(pid);
    }
    const auto until = Clock::now() + std::chrono::duration<double>(o.timeout);
    size_t left = pids.size();
    while (left > 0) {
        for (size_t i = 0; i < pids.size(); ++i) {
            if (pids[i] <= 0) {
                continue;
            }
            int status = 0;
            if (waitpid(pids[i], &status, WNOHANG) == pids[i]) {
                out[i].exited = WIFEXITED(status);
                out[i].code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
                out[i].signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
                out[i].message = shared->message[i];
                out[i].note = shared->note[i];
                pids[i] = 0;
                --left;
            }
        }
        if (left > 0 && Clock::now() > until) {
            for (size_t i = 0; i < pids.size(); ++i) {
                if (pids[i] > 0) {
                    kill(pids[i], SIGKILL);
                    waitpid(pids[i], nullptr, 0);
                    out[i].timed_out = true;
                    out[i].message = "timed out";
                    pids[i] = 0;
                }
            }
            left = 0;
        }
        if (left > 0) {
            usleep(2000);
        }
    }
    munmap(mem, sizeof(Shared));
    shared = nullptr;
    return out;
}

std::string describe_failures(const std::vector<Outcome> &outcomes)
{
    std::string text;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const Outcome &o = outcomes[i];
        if (o.exited && o.code == 0) {
            continue;
        }
        text += "rank " + std::to_string(i) + ": ";
        if (o.timed_out) {
            text += "timed out";
        } else if (o.signal != 0) {
            text += "killed by signal " + std::to_string(o.signal);
        } else {
            text += "exit " + std::to_string(o.code) + ": " + o.message;
        }
        text += "\n";
    }
    return text;
}

std::string in_child(const std::function<std::string()> &fn, int *code)
{
    constexpr size_t kSize = 16384;
    void *mem = mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        return "mmap failed";
    }
    auto *text = static_cast<char *>(mem);
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        const std::string r = fn();
        std::snprintf(text, kSize, "%s", r.c_str());
        std::fflush(nullptr);
        _exit(0);
    }
    int status = 0;
    const auto until = Clock::now() + std::chrono::seconds(30);
    while (waitpid(pid, &status, WNOHANG) != pid) {
        if (Clock::now() > until) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            std::snprintf(text, kSize, "timed out");
            break;
        }
        usleep(2000);
    }
    if (code != nullptr) {
        *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::string result = text;
    munmap(mem, kSize);
    return result;
}

int send_retry(mca_btl_base_module_t *m, mca_btl_base_endpoint_t *ep, const mca_btl_base_segment_t *segments,
               size_t count, mca_btl_base_send_done_fn_t done, void *done_data, double timeout)
{
    const auto until = Clock::now() + std::chrono::duration<double>(timeout);
    for (;;) {
        const int rc = m->btl_send(m, ep, kTag, segments, count, done, done_data);
        if (rc != TESSERA_ERR_OUT_OF_RESOURCE || Clock::now() > until) {
            return rc;
        }
        if (mca_btl_base_progress() == 0) {
            sched_yield();
        }
    }
}

std::vector<std::pair<std::string, std::string>> established_sockets()
{
    std::set<std::string> inodes;
    if (DIR *d = opendir("/proc/self/fd"); d != nullptr) {
        while (dirent *ent = readdir(d)) {
            char target[256] = {};
            const std::string path = std::string("/proc/self/fd/") + ent->d_name;
            if (readlink(path.c_str(), target, sizeof target - 1) > 0 && std::strncmp(target, "socket:[", 8) == 0) {
                inodes.insert(std::string(target + 8, std::strlen(target) - 9));
            }
        }
        closedir(d);
    }
    const auto endpoint = [](const std::string &hex) {
        const size_t colon = hex.find(':');
        in_addr a{};
        a.s_addr = static_cast<in_addr_t>(std::stoul(hex.substr(0, colon), nullptr, 16));
        char text[INET_ADDRSTRLEN] = {};
        inet_ntop(AF_INET, &a, text, sizeof text);
        return std::string(text) + ":" + std::to_string(std::stoul(hex.substr(colon + 1), nullptr, 16));
    };
    std::vector<std::pair<std::string, std::string>> out;
    std::set<std::string> listed; // the table is read while it changes: a socket may show up twice
    std::ifstream in("/proc/net/tcp");
    std::string line;
    std::getline(in, line); // the column titles
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string sl, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
        fields >> sl >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
        if (state == "01" && inodes.count(inode) != 0 && listed.insert(inode).second) {
            out.emplace_back(endpoint(local), endpoint(remote));
        }
    }
    return out;
}

} // namespace tcptest
