/*
 * tessera_info: what this Tessera is and what a run would see. It accepts --mca and --tune like every
 * tool and opens every framework exactly as a process would, so values, sources, selection errors and
 * misspelled parameter names show up here first.
 */
#include <algorithm>
#include <cstdio>
#include <span>
#include <utility>

#include "info_model.h"
#include "info_options.h"
#include "mca/cmdline.h"
#include "mca/constants.h"
#include "mca/suggest.h"
#include "ompi/ompi_frameworks.h"
#include "render.h"
#include "tessera_config.h"

using namespace tessera;

namespace {

/* --param/--select name a framework: an unknown one is an error with the closest names. */
bool check_framework_name(const std::string &name, const std::vector<info::FrameworkInfo> &known)
{
    if (name == "all") {
        return true;
    }
    std::vector<std::string> names;
    for (const info::FrameworkInfo &f : known) {
        if (f.name == name) {
            return true;
        }
        names.push_back(f.name);
    }
    names.emplace_back("mca");
    if (name == "mca") {
        return true;
    }
    auto near = mca::closest_names(name, names);
    std::fprintf(stderr, "tessera_info: no framework named '%s'%s (frameworks: %s)\n", name.c_str(),
                 near.empty() ? "" : ("; did you mean " + mca::join_alternatives(near) + "?").c_str(),
                 mca::join_alternatives(names).c_str());
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    mca::CmdlineResult cmd = mca::parse_mca_args(std::span<char *>(argv + 1, argv + argc));
    if (!cmd.error.empty()) {
        std::fprintf(stderr, "tessera_info: %s\n", cmd.error.c_str());
        return 2;
    }
    std::string usage_error;
    std::vector<std::string> args(cmd.remaining.begin(), cmd.remaining.end());
    std::optional<info::Options> opts = info::parse_options(args, usage_error);
    if (!opts) {
        std::fprintf(stderr, "tessera_info: %s\n", usage_error.c_str());
        return 2;
    }
    if (opts->help) {
        std::fputs(info::usage_text(), stdout);
        return 0;
    }
    if (opts->version) {
        std::printf("tessera_info (Tessera MPI) %s\n", TESSERA_VERSION);
        return 0;
    }

    int status = 0;
    mca::load_sources();
    ompi::register_frameworks();

    info::Model model;
    std::vector<mca_base_framework_t *> frameworks = mca::registered_frameworks();
    std::vector<info::FrameworkInfo> all_frameworks;
    for (mca_base_framework_t *fw : frameworks) {
        all_frameworks.push_back(info::gather_framework(fw));
    }
    /* Opening applies each framework's selection parameter: a bad one is an error of this run too. */
    for (mca_base_framework_t *fw : frameworks) {
        if (mca::framework_open(fw) != TESSERA_SUCCESS) {
            status = 1;
        }
    }
    mca::warn_unknown_names();
    if (mca::error_count() > 0) {
        status = 1;
    }

    if (opts->show_config) {
        model.config = info::gather_config();
    }
    if (opts->show_config || opts->path) {
        model.paths = info::gather_paths();
    }
    if (opts->show_components) {
        model.frameworks = all_frameworks;
    }
    if (opts->param_framework) {
        if (!check_framework_name(*opts->param_framework, all_frameworks)) {
            return 2;
        }
        model.params = info::gather_params(*opts->param_framework, opts->param_component, opts->level);
    }
    for (const std::string &name : opts->select) {
        if (!check_framework_name(name, all_frameworks)) {
            return 2;
        }
        for (mca_base_framework_t *fw : frameworks) {
            if (name == "all" || name == fw->name) {
                model.selections.push_back(info::gather_selection(fw));
                if (!model.selections.back().ok) {
                    status = 1;
                }
            }
        }
    }
    if (opts->show_failed) {
        model.failed = mca::load_errors();
    }
    if (opts->coverage) {
        ompi::TranslatorCoverage c = ompi::translator_coverage();
        if (!c.error.empty()) {
            std::fprintf(stderr, "tessera_info: --coverage: %s\n", c.error.c_str());
            status = 1;
        }
        model.coverage = std::move(c.functions);
        model.coverage_translator = c.component;
        model.coverage_runtime = c.runtime;
    }

    switch (opts->format) {
    case info::Format::Text:
        info::render_text(model, *opts);
        break;
    case info::Format::Parsable:
        info::render_parsable(model, *opts);
        break;
    case info::Format::Json:
        info::render_json(model, *opts);
        break;
    }
    std::fflush(stdout);
    mca::frameworks_finalize();
    return status;
}
