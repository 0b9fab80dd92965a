/* A named POSIX shared-memory file mapped whole (shared_file.h). */
#include "opal/shared_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tessera::opal {

namespace {

std::string errno_text(const char *what, const std::string &name, int err)
{
    return std::string(what) + " /dev/shm" + name + ": " + std::strerror(err);
}

} // namespace

bool SharedFile::map(int fd, std::size_t bytes, const std::string &name, std::string *error)
{
    if (bytes == 0) {
        return true;
    }
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        *error = errno_text("cannot map", name, errno);
        return false;
    }
    base_ = p;
    bytes_ = bytes;
    return true;
}

bool SharedFile::create(const std::string &name, std::size_t bytes, const std::string &why_this_size,
                        std::string *error)
{
    const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        *error = errno_text("cannot create", name, errno);
        return false;
    }
    /* posix_fallocate returns the error instead of setting errno. */
    bool ok = true;
    if (const int err = posix_fallocate(fd, 0, static_cast<off_t>(bytes)); err != 0) {
        *error = errno_text("cannot reserve", name, err) + " (" + std::to_string(bytes) + " bytes: " + why_this_size + ")";
        ok = false;
    }
    ok = ok && map(fd, bytes, name, error);
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
        *error = errno_text("cannot open", name, errno) + " (" + who_creates + ")";
        return false;
    }
    struct stat st {};
    bool ok = fstat(fd, &st) == 0;
    if (!ok) {
        *error = errno_text("cannot open", name, errno);
    }
    ok = ok && map(fd, static_cast<std::size_t>(st.st_size), name, error);
    close(fd);
    return ok;
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
