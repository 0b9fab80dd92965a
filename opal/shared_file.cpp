/* A shared-memory file mapped whole (shared_file.h). */
#include "opal/shared_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tessera::opal {

namespace {

/* `shown`: how the file is named in messages (/dev/shm<name>, or /proc/<pid>/fd/<n>). */
std::string errno_text(const char *what, const std::string &shown, int err)
{
    return std::string(what) + " " + shown + ": " + std::strerror(err);
}

} // namespace

bool SharedFile::map(int fd, std::size_t bytes, const std::string &shown, std::string *error)
{
    if (bytes == 0) {
        return true;
    }
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        *error = errno_text("cannot map", shown, errno);
        return false;
    }
    base_ = p;
    bytes_ = bytes;
    return true;
}

bool SharedFile::reserve_and_map(int fd, std::size_t bytes, const std::string &shown,
                                 const std::string &why_this_size, std::string *error)
{
    /* posix_fallocate returns the error instead of setting errno. */
    if (const int err = posix_fallocate(fd, 0, static_cast<off_t>(bytes)); err != 0) {
        *error = errno_text("cannot reserve", shown, err) + " (" + std::to_string(bytes) +
                 " bytes: " + why_this_size + ")";
        return false;
    }
    return map(fd, bytes, shown, error);
}

bool SharedFile::map_whole(int fd, const std::string &shown, std::string *error)
{
    struct stat st {};
    if (fstat(fd, &st) != 0) {
        *error = errno_text("cannot open", shown, errno);
        return false;
    }
    return map(fd, static_cast<std::size_t>(st.st_size), shown, error);
}

bool SharedFile::create(const std::string &name, std::size_t bytes, const std::string &why_this_size,
                        std::string *error)
{
    const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        *error = errno_text("cannot create", "/dev/shm" + name, errno);
        return false;
    }
    const bool ok = reserve_and_map(fd, bytes, "/dev/shm" + name, why_this_size, error);
    close(fd);
    if (!ok) {
        shm_unlink(name.c_str());
    }
    return ok;
}

bool SharedFile::open(const std::string &name, const std::string &who_creates, std::string *error)
{
    const int fd = shm_open(name.c_str(), O_RDWR, 0600);
    if (fd < 0) {
        *error = errno_text("cannot open", "/dev/shm" + name, errno) + " (" + who_creates + ")";
        return false;
    }
    const bool ok = map_whole(fd, "/dev/shm" + name, error);
    close(fd);
    return ok;
}

bool SharedFile::create_unnamed(const char *label, std::size_t bytes, const std::string &why_this_size,
                                std::string *error)
{
    const int fd = memfd_create(label, MFD_CLOEXEC);
    if (fd < 0) {
        *error = errno_text("cannot create", std::string("an unnamed shared file (") + label + ")", errno);
        return false;
    }
    fd_ = fd;
    if (!reserve_and_map(fd, bytes, path(), why_this_size, error)) {
        close_descriptor();
        return false;
    }
    return true;
}

bool SharedFile::open_path(const std::string &path, const std::string &who_creates, std::string *error)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        *error = errno_text("cannot open", path, errno) + " (" + who_creates + ")";
        return false;
    }
    const bool ok = map_whole(fd, path, error);
    close(fd);
    return ok;
}

std::string SharedFile::path() const
{
    return fd_ < 0 ? std::string() : "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(fd_);
}

void SharedFile::close_descriptor()
{
    if (fd_ >= 0) {
        close(fd_);
        fd_ = -1;
    }
}

void SharedFile::unmap()
{
    if (base_ != nullptr) {
        munmap(base_, bytes_);
        base_ = nullptr;
        bytes_ = 0;
    }
}

} // namespace tessera::opal
