#include "shm_sweep.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <memory>
#include <string_view>

namespace tessera::mpirun {

std::string shm_prefix(uint32_t jobid) { return "tessera-" + std::to_string(jobid) + "-"; }

int sweep_shm(uint32_t jobid, const std::string &dir)
{
    struct DirCloser {
        void operator()(DIR *d) const { closedir(d); }
    };
    std::unique_ptr<DIR, DirCloser> d(opendir(dir.c_str()));
    if (!d) {
        return 0;
    }
    const std::string prefix = shm_prefix(jobid);
    const std::string sem_prefix = "sem." + prefix;
    int removed = 0;
    while (dirent *e = readdir(d.get())) {
        const std::string_view name(e->d_name);
        if (name.starts_with(prefix) || name.starts_with(sem_prefix)) {
            if (unlinkat(dirfd(d.get()), e->d_name, 0) == 0) {
                ++removed;
            }
        }
    }
    return removed;
}

} // namespace tessera::mpirun
