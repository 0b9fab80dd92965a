#include "png_heatmap.h"

#include <png.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

namespace tessera::trace {

namespace {

using Rgb = std::array<uint8_t, 3>;

constexpr Rgb no_traffic = {235, 235, 235};
/* Light yellow to dark blue: readable in print and for the common colour-vision deficiencies. */
constexpr std::array<Rgb, 5> ramp = {{{255, 255, 204}, {161, 218, 180}, {65, 182, 196}, {44, 127, 184}, {37, 52, 148}}};

Rgb colour(uint64_t value, uint64_t max)
{
    if (value == 0) {
        return no_traffic;
    }
    /* log(1+v)/log(1+max): 1 message is visible next to a million. */
    double t = max <= 1 ? 1.0 : std::log1p(static_cast<double>(value)) / std::log1p(static_cast<double>(max));
    double pos = t * (ramp.size() - 1);
    size_t i = std::min(static_cast<size_t>(pos), ramp.size() - 2);
    double f = pos - static_cast<double>(i);
    Rgb c;
    for (size_t k = 0; k < 3; ++k) {
        c[k] = static_cast<uint8_t>(std::lround(ramp[i][k] + f * (ramp[i + 1][k] - ramp[i][k])));
    }
    return c;
}

struct FileCloser {
    void operator()(std::FILE *f) const { std::fclose(f); }
};

/* libpng reports errors by longjmp or through this; keep the text for our message. */
void on_png_error(png_structp png, png_const_charp message)
{
    auto *error = static_cast<std::string *>(png_get_error_ptr(png));
    *error = message;
    png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}

} // namespace

unsigned heatmap_cell_size(size_t procs)
{
    if (procs == 0) {
        return 1;
    }
    return static_cast<unsigned>(std::clamp<size_t>(512 / procs, 1, 32));
}

bool write_heatmap(const std::string &path, size_t procs, const std::vector<PairStats> &pairs, HeatMetric metric,
                   std::string &error)
{
    if (procs == 0) {
        error = "no processes in the trace: nothing to draw";
        return false;
    }
    auto value = [metric](const PairStats &p) { return metric == HeatMetric::Bytes ? p.bytes_sent : p.messages; };
    uint64_t max = 0;
    for (const PairStats &p : pairs) {
        max = std::max(max, value(p));
    }
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
    if (!file) {
        error = "cannot write '" + path + "': " + std::strerror(errno);
        return false;
    }
    std::string png_error;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &png_error, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (info == nullptr) {
        png_destroy_write_struct(&png, nullptr);
        error = "cannot set up libpng";
        return false;
    }
    const unsigned cell = heatmap_cell_size(procs);
    const auto side = static_cast<png_uint_32>(procs * cell);
    std::vector<png_byte> row(size_t{side} * 3);
    if (setjmp(png_jmpbuf(png)) != 0) {
        png_destroy_write_struct(&png, &info);
        error = "cannot write '" + path + "': " + png_error;
        return false;
    }
    png_init_io(png, file.get());
    png_set_IHDR(png, info, side, side, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    auto next = pairs.begin();
    for (size_t s = 0; s < procs; ++s) {
        for (size_t r = 0; r < procs; ++r) {
            uint64_t v = 0;
            if (next != pairs.end() && next->sender == s && next->receiver == r) {
                v = value(*next++);
            }
            Rgb c = colour(v, max);
            for (unsigned x = 0; x < cell; ++x) {
                std::memcpy(&row[(r * cell + x) * 3], c.data(), 3);
            }
        }
        for (unsigned y = 0; y < cell; ++y) {
            png_write_row(png, row.data());
        }
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    if (std::fflush(file.get()) != 0) {
        error = "cannot write '" + path + "': " + std::strerror(errno);
        return false;
    }
    return true;
}

} // namespace tessera::trace
