#include "trace_main.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

#include "message_writer.h"
#include "png_heatmap.h"
#include "report.h"
#include "trace_analysis.h"
#include "trace_options.h"

namespace tessera::trace {

namespace {

struct FileCloser {
    void operator()(std::FILE *f) const { std::fclose(f); }
};

} // namespace

int trace_main(const std::vector<std::string> &args, std::FILE *out, std::FILE *err)
{
    std::string error;
    std::optional<Options> opts = parse_options(args, error);
    if (!opts) {
        std::fprintf(err, "tessera-trace: %s\n", error.c_str());
        return 2;
    }
    if (opts->help) {
        std::fputs(usage_text(), out);
        return 0;
    }
    TraceAnalysis analysis(opts->examples);
    if (!analysis.open(opts->archive, error)) {
        std::fprintf(err, "tessera-trace: %s\n", error.c_str());
        return 1;
    }

    std::unique_ptr<std::FILE, FileCloser> csv_file;
    std::optional<MessageWriter> csv;
    if (opts->csv) {
        std::FILE *f = out;
        if (*opts->csv != "-") {
            csv_file.reset(std::fopen(opts->csv->c_str(), "w"));
            if (!csv_file) {
                std::fprintf(err, "tessera-trace: cannot write '%s': %s\n", opts->csv->c_str(), std::strerror(errno));
                return 1;
            }
            f = csv_file.get();
        }
        csv.emplace(f, MessageWriter::Format::Csv, analysis.clock());
        analysis.add_sink(*csv);
    }
    std::optional<MessageWriter> json_messages;
    if (opts->json_messages) {
        /* The list streams first, as the document's first member; the rest follows at the end. */
        std::fputs("{\n  \"messages\": [", out);
        json_messages.emplace(out, MessageWriter::Format::JsonArray, analysis.clock());
        analysis.add_sink(*json_messages);
    }

    int status = 0;
    if (!analysis.run(error)) {
        std::fprintf(err, "tessera-trace: %s (the reports cover the events read before)\n", error.c_str());
        status = 1;
    }
    if (csv && !csv->flush()) {
        std::fprintf(err, "tessera-trace: writing the CSV file '%s' failed\n", opts->csv->c_str());
        status = 1;
    }

    if (opts->json) {
        std::string doc = json_report(analysis).dump(2);
        if (json_messages) {
            json_messages->flush();
            std::fputs("\n  ],\n", out);
            doc.erase(0, 2); /* "{\n": the document is already open */
        }
        std::fputs(doc.c_str(), out);
        std::fputc('\n', out);
    } else {
        std::fputs(text_summary(analysis).c_str(), out);
        if (opts->matrix) {
            std::fputs(("\n" + text_matrix(analysis)).c_str(), out);
        }
        if (opts->pairs) {
            std::fputs(("\n" + text_pairs(analysis)).c_str(), out);
        }
    }
    if (opts->png &&
        !write_heatmap(*opts->png, analysis.procs(), analysis.stats().pairs(), opts->png_metric, error)) {
        std::fprintf(err, "tessera-trace: %s\n", error.c_str());
        status = 1;
    }
    std::fflush(out);
    return status;
}

} // namespace tessera::trace
