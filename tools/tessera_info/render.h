/* The three views of a Model. Each writes to stdout. */
#ifndef TESSERA_TOOLS_INFO_RENDER_H
#define TESSERA_TOOLS_INFO_RENDER_H

#include "info_model.h"
#include "info_options.h"

namespace tessera::info {

void render_text(const Model &m, const Options &o);
void render_parsable(const Model &m, const Options &o);
void render_json(const Model &m, const Options &o);

/* The value as shown: hidden values are never printed. */
std::string shown_value(const mca::VarInfo &v);

} // namespace tessera::info

#endif
