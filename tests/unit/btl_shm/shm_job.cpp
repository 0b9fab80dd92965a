// Test support for btl shm: forked ranks with a shared modex board (shm_job.h).
#include "tests/unit/btl_shm/shm_job.h"

#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <thread>

#include "frameworks/btl/base/base.h"
#include "mca/framework.h"
#include "mca/var_store.h"
#include "ompi/proc/modex.h"
#include "ompi/proc/proc.h"

namespace shmtest {

namespace {

using Clock = std::chrono::steady_clock;

// The rank of this process (one per forked child).
Rank *current = nullptr;
bool fenced = false;
bool opened = false;
tessera_job_info_t job_info;
std::vector<uint32_t> node_of;

int board_put(void *, const char *key, const void *data, size_t len)
{
    if (fenced || len > sizeof(Board::Card::data) || std::strlen(key) >= sizeof(Board::Card::key)) {
        return TESSERA_ERR_BAD_PARAM;
    }
    for (Board::Card &c : current->board->cards[current->rank]) {
        if (c.ready.load(std::memory_order_relaxed) == 0) {
            std::snprintf(c.key, sizeof c.key, "%s", key);
            std::memcpy(c.data, data, len);
            c.len = static_cast<uint32_t>(len);
            c.ready.store(1, std::memory_order_release);
            return TESSERA_SUCCESS;
        }
    }
    return TESSERA_ERR_OUT_OF_RESOURCE;
}

int board_get(void *, uint32_t rank, const char *key, const void **data, size_t *len)
{
    if (!fenced) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (rank >= kMaxRanks) {
        return TESSERA_ERR_NOT_FOUND;
    }
    for (Board::Card &c : current->board->cards[rank]) {
        if (c.ready.load(std::memory_order_acquire) != 0 && std::strcmp(c.key, key) == 0) {
            *data = c.data;
            *len = c.len;
            return TESSERA_SUCCESS;
        }
    }
    return TESSERA_ERR_NOT_FOUND;
}

void on_error(mca_btl_base_module_t *, tessera_proc_t *proc, int status, const char *why, void *cbdata)
{
    auto *r = static_cast<Rank *>(cbdata);
    ++r->errors_reported;
    r->error_proc = proc;
    r->error_status = status;
    std::fprintf(stderr, "rank %u: peer error reported: %s\n", r->rank, why);
}

} // namespace

void fail(const char *file, int line, const std::string &what)
{
    std::fprintf(stderr, "%s:%d: rank %u: check failed: %s\n", file, line, current != nullptr ? current->rank : 0u,
                 what.c_str());
    std::fflush(stderr);
    _exit(1);
}

void Rank::open(bool threads)
{
    job_info = tessera_job_info_t{
        .singleton = singleton,
        .jobid = jobid,
        .rank = rank,
        .size = size,
        .local_rank = local_rank,
        .local_size = local_size,
        .node_id = node_id,
        .host = "localhost",
        .job_key = "",
    };
    const tessera_modex_ops_t ops{board_put, board_get, nullptr};
    tessera_modex_install(&job_info, &ops);
    SHM_CHECK(tessera::mca::framework_register(&mca_btl_base_framework) == TESSERA_SUCCESS, "register btl");
    SHM_CHECK(tessera::mca::framework_open(&mca_btl_base_framework) == TESSERA_SUCCESS, "open btl");
    opened = true;
    // Fails when no component is left to select (shm refused its parameters): then there is no module.
    btl = tessera_btl_base_select(false, threads) == TESSERA_SUCCESS && mca_btl_base_module_count() > 0
              ? mca_btl_base_module_at(0)
              : nullptr;
    mca_btl_base_register_error(on_error, this);
    for (uint32_t i = 0; i < size; ++i) {
        uint32_t flags = node_of[i] == node_id ? TESSERA_PROC_ON_NODE : 0u;
        flags |= i == rank ? TESSERA_PROC_IS_SELF : 0u;
        procs.push_back(tessera_proc_create({jobid, i}, "localhost", flags));
    }
}

void Rank::fence()
{
    barrier();
    fenced = true;
}

void Rank::add_procs()
{
    endpoints.assign(size, nullptr);
    SHM_CHECK(btl != nullptr, "shm made no module");
    SHM_CHECK(btl->btl_add_procs(btl, size, procs.data(), endpoints.data()) == TESSERA_SUCCESS, "add_procs");
}

void Rank::close()
{
    if (!opened) {
        return;
    }
    if (btl != nullptr && !endpoints.empty()) {
        btl->btl_del_procs(btl, size, procs.data(), endpoints.data());
    }
    endpoints.clear();
    mca_btl_base_register_error(nullptr, nullptr);
    tessera::mca::framework_close(&mca_btl_base_framework);
    tessera_modex_install(nullptr, nullptr);
    for (tessera_proc_t *p : procs) {
        tessera_proc_destroy(p);
    }
    procs.clear();
    btl = nullptr;
    opened = false;
}

void Rank::barrier(bool progressing)
{
    const uint32_t gen = board->generation.load(std::memory_order_acquire);
    if (board->arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == size) {
        board->arrived.store(0, std::memory_order_relaxed);
        board->generation.fetch_add(1, std::memory_order_release);
        return;
    }
    while (board->generation.load(std::memory_order_acquire) == gen) {
        if (progressing) {
            progress();
        }
        if (yield) {
            sched_yield();
        }
    }
}

int Rank::progress()
{
    return btl != nullptr ? btl->btl_progress(btl) : 0;
}

int Rank::send(uint32_t peer, const void *header, size_t header_len, const void *payload, size_t payload_len,
               mca_btl_base_tag_t tag)
{
    const mca_btl_base_segment_t segments[2] = {{header, header_len}, {payload, payload_len}};
    const size_t count = payload_len != 0 ? 2 : (header_len != 0 ? 1 : 0);
    for (unsigned spins = 0;; ++spins) {
        const int rc = btl->btl_send(btl, endpoints[peer], tag, segments, count, nullptr, nullptr);
        if (rc != TESSERA_ERR_OUT_OF_RESOURCE) {
            return rc;
        }
        if (progress() == 0 && spins > 64 && yield) {
            sched_yield(); // the receiver may share our core
        }
    }
}

bool Rank::progress_until(const std::function<bool()> &pred, double seconds)
{
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    for (unsigned spins = 0; !pred(); ++spins) {
        if (progress() == 0 && spins > 64) {
            sched_yield();
            if (Clock::now() > deadline) {
                return false;
            }
        }
    }
    return true;
}

Job::Job(uint32_t ranks, Params params) : ranks_(ranks), params_(std::move(params)), setups_(ranks)
{
    static uint32_t counter = 0;
    jobid_ = (static_cast<uint32_t>(getpid()) << 10) | (++counter & 0x3ffu);
    void *p = mmap(nullptr, sizeof(Board), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    board_ = p == MAP_FAILED ? nullptr : new (p) Board{};
}

Job::~Job()
{
    for (const std::string &name : leftovers()) {
        unlink(("/dev/shm/" + name).c_str());
    }
    if (board_ != nullptr) {
        munmap(board_, sizeof(Board));
    }
}

void Job::run(const std::function<void(Rank &)> &body, double timeout)
{
    statuses_.assign(ranks_, -1);
    std::vector<pid_t> pids(ranks_, -1);
    std::fflush(nullptr);
    for (uint32_t i = 0; i < ranks_; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            Rank r;
            r.rank = i;
            r.size = ranks_;
            r.jobid = jobid_;
            r.board = board_;
            r.local_rank = setups_[i].local_rank != ~0u ? setups_[i].local_rank : i;
            r.local_size = setups_[i].local_size != 0 ? setups_[i].local_size : ranks_;
            r.node_id = setups_[i].node_id;
            for (const RankSetup &s : setups_) {
                node_of.push_back(s.node_id);
            }
            current = &r;
            tessera::mca::set_command_line("btl", "shm");
            for (const auto &[name, value] : params_) {
                tessera::mca::set_command_line(name, value);
            }
            for (const auto &[name, value] : setups_[i].params) {
                tessera::mca::set_command_line(name, value);
            }
            int code = 0;
            try {
                body(r);
                r.close();
            } catch (const std::exception &e) {
                std::fprintf(stderr, "rank %u: exception: %s\n", i, e.what());
                code = 2;
            }
            std::fflush(nullptr);
            _exit(code);
        }
        pids[i] = pid;
    }
    const auto deadline = Clock::now() + std::chrono::duration<double>(timeout);
    uint32_t left = ranks_;
    while (left > 0) {
        for (uint32_t i = 0; i < ranks_; ++i) {
            int status = 0;
            if (pids[i] > 0 && waitpid(pids[i], &status, WNOHANG) == pids[i]) {
                statuses_[i] = status;
                pids[i] = -1;
                --left;
            }
        }
        if (left > 0 && Clock::now() > deadline) {
            for (uint32_t i = 0; i < ranks_; ++i) {
                if (pids[i] > 0) {
                    std::fprintf(stderr, "rank %u did not finish within %.0f s: killed\n", i, timeout);
                    kill(pids[i], SIGKILL);
                    waitpid(pids[i], nullptr, 0);
                    pids[i] = -1;
                    --left;
                }
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

bool Job::all_exited_ok() const
{
    for (int s : statuses_) {
        if (s == -1 || !WIFEXITED(s) || WEXITSTATUS(s) != 0) {
            return false;
        }
    }
    return true;
}

std::string Job::describe() const
{
    std::string text;
    for (size_t i = 0; i < statuses_.size(); ++i) {
        const int s = statuses_[i];
        text += "rank " + std::to_string(i) + ": ";
        if (s == -1) {
            text += "timed out";
        } else if (WIFEXITED(s)) {
            text += "exit " + std::to_string(WEXITSTATUS(s));
        } else if (WIFSIGNALED(s)) {
            text += std::string("signal ") + strsignal(WTERMSIG(s));
        }
        text += "; ";
    }
    return text;
}

std::vector<std::string> Job::leftovers() const
{
    std::vector<std::string> names;
    const std::string prefix = "tessera-" + std::to_string(jobid_) + "-";
    if (DIR *d = opendir("/dev/shm")) {
        while (dirent *e = readdir(d)) {
            if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0) {
                names.emplace_back(e->d_name);
            }
        }
        closedir(d);
    }
    return names;
}

std::string Job::segment_path(uint32_t node) const
{
    return "/dev/shm/tessera-" + std::to_string(jobid_) + "-shm-" + std::to_string(node);
}

} // namespace shmtest
