/*
 * io posix: the hints a file takes (MPI-4.1 14.2.8 and ROMIO's names), over the io_posix_* defaults.
 * A hint with a value this component cannot use is ignored, as the standard allows, and the value in
 * force is what MPI_File_get_info reports.
 */
#include <cstdlib>
#include <string>

#include "components/io/posix/io_posix.h"

namespace tessera::ompi::io_posix {

namespace {

const char *switch_name(int s)
{
    return s == Enable ? "enable" : s == Disable ? "disable" : "automatic";
}

void take_switch(const InfoEntries &info, const char *key, int *out)
{
    if (const std::string *v = info.find(key)) {
        if (*v == "enable") {
            *out = Enable;
        } else if (*v == "disable") {
            *out = Disable;
        } else if (*v == "automatic") {
            *out = Automatic;
        }
    }
}

void take_size(const InfoEntries &info, const char *key, std::size_t *out)
{
    if (const std::string *v = info.find(key)) {
        char *end = nullptr;
        const long long n = std::strtoll(v->c_str(), &end, 10);
        if (end != v->c_str() && *end == '\0' && n > 0) {
            *out = static_cast<std::size_t>(n);
        }
    }
}

void take_int(const InfoEntries &info, const char *key, int *out)
{
    if (const std::string *v = info.find(key)) {
        char *end = nullptr;
        const long n = std::strtol(v->c_str(), &end, 10);
        if (end != v->c_str() && *end == '\0' && n > 0) {
            *out = static_cast<int>(n);
        }
    }
}

} // namespace

int hints_apply(File *f, FileState *st)
{
    Params p = params;
    const InfoEntries &info = f->info;
    take_switch(info, "romio_ds_read", &p.ds_read);
    take_switch(info, "romio_ds_write", &p.ds_write);
    take_switch(info, "romio_cb_read", &p.cb_read);
    take_switch(info, "romio_cb_write", &p.cb_write);
    take_size(info, "ind_rd_buffer_size", &p.ds_buffer_size);
    take_size(info, "ind_wr_buffer_size", &p.ds_buffer_size);
    take_size(info, "cb_buffer_size", &p.cb_buffer_size);
    take_int(info, "cb_nodes", &p.cb_nodes);
    if (p.cb_nodes > f->size) {
        p.cb_nodes = f->size;
    }
    st->in_force = p;
    f->info.set("romio_ds_read", switch_name(p.ds_read));
    f->info.set("romio_ds_write", switch_name(p.ds_write));
    f->info.set("romio_cb_read", switch_name(p.cb_read));
    f->info.set("romio_cb_write", switch_name(p.cb_write));
    f->info.set("ind_rd_buffer_size", std::to_string(p.ds_buffer_size));
    f->info.set("ind_wr_buffer_size", std::to_string(p.ds_buffer_size));
    f->info.set("cb_buffer_size", std::to_string(p.cb_buffer_size));
    f->info.set("cb_nodes", std::to_string(p.cb_nodes > 0 ? p.cb_nodes : static_cast<int>(st->host_leaders.size())));
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::io_posix
