/*
 * A shared-memory file mapped whole: what btl shm's segment and coll sm's segments are made of. Either
 * named (/dev/shm<name>: the caller decides when the name goes) or unnamed (a memfd: there is never
 * anything in /dev/shm to leave behind, whatever kills the processes; another process of this user
 * maps it through /proc/<pid>/fd/<n> while its creator holds it open). Each caller lays out and checks
 * its own contents; this holds the system calls, and what they say when they fail.
 */
#ifndef TESSERA_OPAL_SHARED_FILE_H
#define TESSERA_OPAL_SHARED_FILE_H

#include <cstddef>
#include <string>

namespace tessera::opal {

class SharedFile {
public:
    SharedFile() = default;
    ~SharedFile()
    {
        unmap();
        close_descriptor();
    }
    SharedFile(const SharedFile &) = delete;
    SharedFile &operator=(const SharedFile &) = delete;

    /* Creates the file (it must not exist yet), reserves `bytes` now — a full /dev/shm is an error here
     * and not a SIGBUS later — and maps it, zeroed. A failure leaves no file behind and says why in
     * *error; one to reserve the bytes also says where their number comes from (`why_this_size`). */
    bool create(const std::string &name, std::size_t bytes, const std::string &why_this_size, std::string *error);
    /* Maps an existing file whole; an empty one maps nothing (base() null, bytes() 0). When there is no
     * such file to open, *error also says who makes it (`who_creates`). */
    bool open(const std::string &name, const std::string &who_creates, std::string *error);
    /* Creates an unnamed file (`label` is what /proc shows of it), reserves and maps it as create does,
     * and keeps it open: path() names it for other processes until close_descriptor(). */
    bool create_unnamed(const char *label, std::size_t bytes, const std::string &why_this_size, std::string *error);
    /* Maps whole the file another process made with create_unnamed (its path()). */
    bool open_path(const std::string &path, const std::string &who_creates, std::string *error);
    /* /proc/<pid>/fd/<n> of an unnamed file this process created and still holds open; else empty. */
    std::string path() const;
    /* The unnamed file can no longer be opened by others (its mapping stays). */
    void close_descriptor();
    void unmap();

    void *base() const { return base_; }
    std::size_t bytes() const { return bytes_; }

private:
    bool map(int fd, std::size_t bytes, const std::string &shown, std::string *error);
    bool reserve_and_map(int fd, std::size_t bytes, const std::string &shown, const std::string &why_this_size,
                         std::string *error);
    bool map_whole(int fd, const std::string &shown, std::string *error);

    int fd_ = -1; /* an unnamed file's, until close_descriptor */
    void *base_ = nullptr;
    std::size_t bytes_ = 0;
};

} // namespace tessera::opal

#endif
