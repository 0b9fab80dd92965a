/*
 * Nonblocking data access (MPI-4.1 14.4.2-14.4.4): MPI_File_iread, iwrite and their _at and _shared
 * forms run on an I/O thread of the process while the application goes on; their requests are
 * generalized requests (MPI-4.1 13.2) that the thread completes, so that MPI_Wait, MPI_Test and every
 * other completion call serve them like any request. The file pointer moves at the call by what was
 * asked (14.4.3). The collective forms (_all) run at the call and return a completed request: a
 * collective needs every process, and the progress engine does not drive schedules of I/O yet.
 */
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "ompi/file/file_access.h"
#include "ompi/pml/pml_request.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi {

namespace {

/* One operation in flight, the generalized request's extra state. */
struct Job {
    File *f = nullptr;
    AccessCall call{};
    const Datatype *type = nullptr;
    MPI_Offset offset = 0;
    std::size_t bytes = 0;
    int rc = MPI_SUCCESS;
    MPI_Request request = MPI_REQUEST_NULL;
};

/* The process's I/O thread: started at the first nonblocking access, joined at exit. Jobs run in the
 * order they were posted. */
class Worker {
public:
    void post(Job *job)
    {
        {
            const std::lock_guard<std::mutex> guard(lock_);
            if (!thread_.joinable()) {
                thread_ = std::thread([this] { run(); });
            }
            queue_.push_back(job);
        }
        wake_.notify_one();
    }
    ~Worker()
    {
        {
            const std::lock_guard<std::mutex> guard(lock_);
            stop_ = true;
        }
        wake_.notify_one();
        if (thread_.joinable()) {
            thread_.join();
        }
    }

private:
    void run()
    {
        for (;;) {
            Job *job = nullptr;
            {
                std::unique_lock<std::mutex> guard(lock_);
                wake_.wait(guard, [this] { return stop_ || !queue_.empty(); });
                if (queue_.empty()) {
                    return;
                }
                job = queue_.front();
                queue_.pop_front();
            }
            job->rc = access_run(job->f, job->call, job->type, job->offset, &job->bytes);
            native::grequest_complete(job->request);
        }
    }

    std::mutex lock_;
    std::condition_variable wake_;
    std::deque<Job *> queue_;
    std::thread thread_;
    bool stop_ = false;
};

Worker &worker()
{
    static Worker w;
    return w;
}

int query(void *extra, MPI_Status *status)
{
    const Job *job = static_cast<const Job *>(extra);
    MPI_Status s;
    pml::status_empty(&s);
    pml::status_set_count(&s, job->bytes);
    s.MPI_ERROR = job->rc;
    *status = s;
    return job->rc;
}

int release(void *extra)
{
    std::unique_ptr<Job> job(static_cast<Job *>(extra));
    datatype_release(job->type);
    return MPI_SUCCESS;
}

int cancel(void *, int)
{
    return MPI_SUCCESS; /* an operation on the I/O thread runs to its end */
}

int post_access(const AccessCall &call, MPI_Request *request)
{
    File *f = nullptr;
    const Datatype *type = nullptr;
    *request = MPI_REQUEST_NULL;
    if (int rc = access_check(call, &f, &type); rc != MPI_SUCCESS) {
        return rc;
    }
    const std::size_t etype = f->view.etype->size;
    const MPI_Offset etypes =
        etype == 0 ? 0 : static_cast<MPI_Offset>(static_cast<std::size_t>(call.count) * type->size / etype);
    auto job = std::make_unique<Job>();
    job->f = f;
    job->call = call;
    job->type = type;
    job->offset = call.offset;
    if (call.position == Position::Individual) {
        job->offset = f->pointer;
        f->pointer += etypes;
    } else if (call.position == Position::Shared) {
        if (int rc = file_shared_fetch_add(f, etypes, &job->offset); rc != MPI_SUCCESS) {
            return raise_on_file(call.fh, rc, call.function, f->error_detail);
        }
    }
    datatype_retain(type);
    if (int rc = native::grequest_start(query, release, cancel, job.get(), request); rc != MPI_SUCCESS) {
        datatype_release(type);
        return rc;
    }
    Job *posted = job.release();
    posted->request = *request;
    if (call.collective) {
        /* Every process is here: run it now (see above). */
        posted->rc = access_run(f, call, type, posted->offset, &posted->bytes);
        native::grequest_complete(*request);
        return MPI_SUCCESS;
    }
    worker().post(posted);
    return MPI_SUCCESS;
}

AccessCall make(const char *function, MPI_File fh, bool write, bool collective, Position position, MPI_Offset offset,
                const void *buf, MPI_Count count, MPI_Datatype datatype)
{
    return AccessCall{function, fh, write, collective, position, offset, const_cast<void *>(buf), count, datatype};
}

} // namespace

namespace native {

int file_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    return post_access(make("MPI_File_iread", fh, false, false, Position::Individual, 0, buf, count, datatype), request);
}
int file_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    return post_access(make("MPI_File_iwrite", fh, true, false, Position::Individual, 0, buf, count, datatype), request);
}
int file_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Request *request)
{
    return post_access(make("MPI_File_iread_at", fh, false, false, Position::Explicit, offset, buf, count, datatype),
                 request);
}
int file_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Request *request)
{
    return post_access(make("MPI_File_iwrite_at", fh, true, false, Position::Explicit, offset, buf, count, datatype),
                 request);
}
int file_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    return post_access(make("MPI_File_iread_all", fh, false, true, Position::Individual, 0, buf, count, datatype), request);
}
int file_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    return post_access(make("MPI_File_iwrite_all", fh, true, true, Position::Individual, 0, buf, count, datatype), request);
}
int file_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Request *request)
{
    return post_access(make("MPI_File_iread_at_all", fh, false, true, Position::Explicit, offset, buf, count, datatype),
                 request);
}
int file_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Request *request)
{
    return post_access(make("MPI_File_iwrite_at_all", fh, true, true, Position::Explicit, offset, buf, count, datatype),
                 request);
}
int file_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    return post_access(make("MPI_File_iread_shared", fh, false, false, Position::Shared, 0, buf, count, datatype), request);
}
int file_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    return post_access(make("MPI_File_iwrite_shared", fh, true, false, Position::Shared, 0, buf, count, datatype), request);
}

} // namespace native
} // namespace tessera::ompi
