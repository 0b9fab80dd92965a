/*
 * tessera-trace: reads an OTF2 archive, reconstructs its MPI messages following
 * seeds/otf2-message-matching.txt, and reports them (docs/trace-tool.md).
 */
#include <cstdio>

#include "trace_main.h"

int main(int argc, char **argv)
{
    return tessera::trace::trace_main(std::vector<std::string>(argv + 1, argv + argc), stdout, stderr);
}
