#include "trace_options.h"

#include <charconv>

#include "mca/suggest.h"

namespace tessera::trace {

namespace {

const std::vector<std::string> option_names = {"--csv",  "--matrix",     "--pairs",    "--json", "--messages",
                                               "--png",  "--png-metric", "--examples", "--help"};

} // namespace

const char *usage_text()
{
    return "Usage: tessera-trace [options] ARCHIVE.otf2\n"
           "Reads an OTF2 trace (Tessera's trace otf2 component, Score-P, ...), matches its MPI sends\n"
           "to their receives and reports the messages. Prints a summary with the condensed warnings\n"
           "(missing receives, receives without a send, non-positive durations, sends larger than\n"
           "their receive, records it could not map); warnings never stop the analysis.\n"
           "\n"
           "  --csv FILE           write the message list as CSV to FILE ('-': standard output):\n"
           "                       sender,receiver,comm,tag,bytes_sent,bytes_received,send_time_s,\n"
           "                       recv_time_s,latency_s (ranks in MPI_COMM_WORLD)\n"
           "  --matrix             print the communication matrix: messages and bytes per sender\n"
           "                       (row) and receiver (column)\n"
           "  --pairs              print latency and bandwidth per sender/receiver pair\n"
           "  --json               print one JSON document instead of text: summary, warnings,\n"
           "                       matrix and pairs\n"
           "  --messages           with --json: put the message list in the document too\n"
           "  --png FILE           draw the matrix as a heat map (PNG, logarithmic colour scale)\n"
           "  --png-metric WHAT    what the heat map shows: bytes (default) or messages\n"
           "  --examples N         examples shown per warning kind (default 3)\n"
           "  -h, --help           this text\n"
           "\n"
           "Exit status:\n"
           "  0 when the trace was analysed (whatever it warns about); 1 when the archive cannot be\n"
           "  read or an output file cannot be written; 2 for a usage error.\n";
}

std::optional<Options> parse_options(const std::vector<std::string> &args, std::string &error)
{
    Options o;
    auto value = [&](size_t &i, const char *what) -> const std::string * {
        if (i + 1 >= args.size()) {
            error = args[i] + " needs " + what;
            return nullptr;
        }
        return &args[++i];
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--csv" || a == "--png") {
            const std::string *file = value(i, "a file name");
            if (file == nullptr) {
                return std::nullopt;
            }
            (a == "--csv" ? o.csv : o.png) = *file;
        } else if (a == "--matrix") {
            o.matrix = true;
        } else if (a == "--pairs") {
            o.pairs = true;
        } else if (a == "--json") {
            o.json = true;
        } else if (a == "--messages") {
            o.json_messages = true;
        } else if (a == "--png-metric") {
            const std::string *what = value(i, "bytes or messages");
            if (what == nullptr) {
                return std::nullopt;
            }
            if (*what != "bytes" && *what != "messages") {
                error = "--png-metric takes bytes or messages, not '" + *what + "'";
                return std::nullopt;
            }
            o.png_metric = *what == "bytes" ? HeatMetric::Bytes : HeatMetric::Messages;
        } else if (a == "--examples") {
            const std::string *n = value(i, "a number");
            if (n == nullptr) {
                return std::nullopt;
            }
            auto [end, ec] = std::from_chars(n->data(), n->data() + n->size(), o.examples);
            if (ec != std::errc() || end != n->data() + n->size()) {
                error = "--examples takes a number, not '" + *n + "'";
                return std::nullopt;
            }
        } else if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            auto near = mca::closest_names(a, option_names);
            error = "unknown option '" + a + "'" +
                    (near.empty() ? "" : "; did you mean " + mca::join_alternatives(near) + "?") +
                    " (see --help)";
            return std::nullopt;
        } else if (!o.archive.empty()) {
            error = "one archive at a time: '" + o.archive + "' and '" + a + "'";
            return std::nullopt;
        } else {
            o.archive = a;
        }
    }
    if (o.help) {
        return o;
    }
    if (o.archive.empty()) {
        error = "no archive given: name the anchor file of an OTF2 archive (e.g. trace-dir/traces.otf2)";
        return std::nullopt;
    }
    if (o.json_messages && !o.json) {
        error = "--messages puts the message list in the JSON document: use it with --json (or --csv FILE)";
        return std::nullopt;
    }
    if (o.json && o.csv && *o.csv == "-") {
        error = "--json and --csv - would both write to standard output: give --csv a file";
        return std::nullopt;
    }
    return o;
}

} // namespace tessera::trace
