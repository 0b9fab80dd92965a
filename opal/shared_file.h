/*
 * A named POSIX shared-memory file (/dev/shm<name>) mapped whole: what btl shm's segment and coll sm's
 * segments are made of. Each caller lays out and checks its own contents and decides when the name
 * goes; this holds the system calls, and what they say when they fail.
 */
#ifndef TESSERA_OPAL_SHARED_FILE_H
#define TESSERA_OPAL_SHARED_FILE_H

#include <cstddef>
#include <string>

namespace tessera::opal {

class SharedFile {
public:
    SharedFile() = default;
    ~SharedFile() { unmap(); }
    SharedFile(const SharedFile &) = delete;
    SharedFile &operator=(const SharedFile &) = delete;

    /* Creates the file (it must not exist yet), reserves `bytes` now — a full /dev/shm is an error here
     * and not a SIGBUS later — and maps it, zeroed. A failure leaves no file behind and says why in
     * *error; one to reserve the bytes also says where their number comes from (`why_this_size`). */
    bool create(const std::string &name, std::size_t bytes, const std::string &why_this_size, std::string *error);
    /* Maps an existing file whole; an empty one maps nothing (base() null, bytes() 0). When there is no
     * such file to open, *error also says who makes it (`who_creates`). */
    bool open(const std::string &name, const std::string &who_creates, std::string *error);
    void unmap();

    void *base() const { return base_; }
    std::size_t bytes() const { return bytes_; }

private:
    bool map(int fd, std::size_t bytes, const std::string &name, std::string *error);

    void *base_ = nullptr;
    std::size_t bytes_ = 0;
};

} // namespace tessera::opal

#endif
