#include "mca/cmdline.h"

#include <string_view>

#include "mca/var_store.h"

namespace tessera::mca {

CmdlineResult scan_mca_args(std::span<char *> args)
{
    CmdlineResult r;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i] != nullptr ? args[i] : "";
        if (arg == "--") {
            r.remaining.insert(r.remaining.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
            break;
        }
        if (arg == "--mca" || arg == "-mca") {
            if (i + 1 >= args.size() || args[i + 1] == nullptr || *args[i + 1] == '\0') {
                r.error = std::string(arg) + " needs a parameter name and a value (as in " + std::string(arg) +
                          " btl tcp,self), but nothing follows it";
                return r;
            }
            if (i + 2 >= args.size() || args[i + 2] == nullptr) {
                r.error = std::string(arg) + " " + args[i + 1] + " needs a value after the parameter name (as in " +
                          std::string(arg) + " " + args[i + 1] + " VALUE)";
                return r;
            }
            if (const std::string_view name = args[i + 1]; name.find('=') != std::string_view::npos) {
                /* "--mca btl=tcp self" would otherwise quietly set a parameter called "btl=tcp". */
                r.error = std::string(arg) + " takes the name and the value as two arguments: " + std::string(arg) +
                          " " + std::string(name.substr(0, name.find('='))) + " " +
                          std::string(name.substr(name.find('=') + 1)) + ", not " + std::string(arg) + " " +
                          std::string(name);
                return r;
            }
            r.mca.emplace_back(args[i + 1], args[i + 2]);
            i += 2;
            continue;
        }
        if (arg == "--tune") {
            if (i + 1 >= args.size() || args[i + 1] == nullptr || *args[i + 1] == '\0') {
                r.error = "--tune needs the name of a parameter file (as in --tune my-params.conf)";
                return r;
            }
            r.tune_files.emplace_back(args[i + 1]);
            ++i;
            continue;
        }
        if (arg.starts_with("--tune=")) {
            const std::string_view file = arg.substr(7);
            if (file.empty()) {
                r.error = "--tune= needs the name of a parameter file (as in --tune=my-params.conf)";
                return r;
            }
            r.tune_files.emplace_back(file);
            continue;
        }
        r.remaining.push_back(args[i]);
    }
    return r;
}

CmdlineResult parse_mca_args(std::span<char *> args)
{
    CmdlineResult r = scan_mca_args(args);
    if (!r.ok()) {
        return r;
    }
    for (const auto &[name, value] : r.mca) {
        set_command_line(name, value);
    }
    for (const auto &file : r.tune_files) {
        add_tune_file(file);
    }
    return r;
}

} // namespace tessera::mca
