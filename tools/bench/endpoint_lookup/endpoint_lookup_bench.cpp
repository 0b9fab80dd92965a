// What an endpoint lookup costs: the 2013 RFC promises that a compile-time slot
// costs the same as the named field it replaces, and accepts that a dynamic tag costs more.
//
// 1024 procs, allocated one by one as the proc table does, are visited in a shuffled order read from
// memory, so the compiler can neither hoist nor vectorise the lookups. Two shapes:
//   Throughput/*  independent lookups, summed: what a loop over peers pays;
//   Latency/*     each endpoint points to the next proc to visit: the load-to-use chain of one lookup.
// The "lookup" counter is the time per lookup.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "endpoint_lookup_plain.h"
#include "ompi/proc/endpoint_registry.h"
#include "ompi/proc/proc.h"
#include "ompi/proc/proc_table.h"

namespace {

constexpr std::size_t kProcs = 1024;

struct Procs {
    tessera::ompi::ProcTable table;
    std::vector<std::unique_ptr<bench_plain_proc>> plain_storage;
    std::vector<tessera_proc_t *> procs;
    std::vector<bench_plain_proc *> plain;
    std::vector<std::uint32_t> order; // a permutation of 0..kProcs-1; also the cycle Latency follows
    int dynamic_tag = -1;

    Procs()
    {
        order.resize(kProcs);
        for (std::uint32_t i = 0; i < kProcs; ++i) {
            order[i] = i;
        }
        std::shuffle(order.begin(), order.end(), std::mt19937(20130718));
#if TESSERA_DYNAMIC_ENDPOINTS
        dynamic_tag = tessera_endpoint_tag_register("BENCH_DYNAMIC");
#endif
        for (std::uint32_t i = 0; i < kProcs; ++i) {
            procs.push_back(table.add({1, i}, "node"));
            plain_storage.push_back(std::make_unique<bench_plain_proc>());
            plain.push_back(plain_storage.back().get());
        }
        // Every endpoint points to the next proc of the cycle, in every representation.
        for (std::size_t i = 0; i < kProcs; ++i) {
            std::uint32_t self = order[i];
            std::uint32_t next = order[(i + 1) % kProcs];
            plain[self]->proc_bml = plain[next];
#if TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0
            procs[self]->proc_endpoint[BENCH_STATIC_TAG] = procs[next];
#endif
            if (dynamic_tag >= 0) {
                tessera_proc_endpoint_set(procs[self], dynamic_tag, procs[next]);
            }
        }
    }
};

Procs &procs()
{
    static Procs p;
    return p;
}

void finish(benchmark::State &state)
{
    state.counters["lookup"] = benchmark::Counter(static_cast<double>(kProcs),
                                                  benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}

// --- Throughput ---------------------------------------------------------------------------------

void Throughput_PlainField(benchmark::State &state)
{
    const Procs &p = procs();
    for (auto _ : state) {
        std::uintptr_t sum = 0;
        for (std::uint32_t i : p.order) {
            sum += reinterpret_cast<std::uintptr_t>(p.plain[i]->proc_bml);
        }
        benchmark::DoNotOptimize(sum);
    }
    finish(state);
}

#if TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0
void Throughput_StaticSlot(benchmark::State &state)
{
    const Procs &p = procs();
    for (auto _ : state) {
        std::uintptr_t sum = 0;
        for (std::uint32_t i : p.order) {
            sum += reinterpret_cast<std::uintptr_t>(p.procs[i]->proc_endpoint[BENCH_STATIC_TAG]);
        }
        benchmark::DoNotOptimize(sum);
    }
    finish(state);
}

// The generic accessor with a constant static tag folds to the slot read.
void Throughput_StaticTagAccessor(benchmark::State &state)
{
    const Procs &p = procs();
    for (auto _ : state) {
        std::uintptr_t sum = 0;
        for (std::uint32_t i : p.order) {
            sum += reinterpret_cast<std::uintptr_t>(tessera_proc_endpoint_get(p.procs[i], BENCH_STATIC_TAG));
        }
        benchmark::DoNotOptimize(sum);
    }
    finish(state);
}
#endif

#if TESSERA_DYNAMIC_ENDPOINTS
void Throughput_DynamicTag(benchmark::State &state)
{
    const Procs &p = procs();
    for (auto _ : state) {
        std::uintptr_t sum = 0;
        for (std::uint32_t i : p.order) {
            sum += reinterpret_cast<std::uintptr_t>(tessera_proc_endpoint_get(p.procs[i], p.dynamic_tag));
        }
        benchmark::DoNotOptimize(sum);
    }
    finish(state);
}
#endif

// --- Latency ------------------------------------------------------------------------------------

void Latency_PlainField(benchmark::State &state)
{
    const Procs &p = procs();
    for (auto _ : state) {
        const bench_plain_proc *proc = p.plain[p.order[0]];
        for (std::size_t n = 0; n < kProcs; ++n) {
            proc = static_cast<const bench_plain_proc *>(proc->proc_bml);
        }
        benchmark::DoNotOptimize(proc);
    }
    finish(state);
}

#if TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0
void Latency_StaticSlot(benchmark::State &state)
{
    const Procs &p = procs();
    for (auto _ : state) {
        const tessera_proc_t *proc = p.procs[p.order[0]];
        for (std::size_t n = 0; n < kProcs; ++n) {
            proc = static_cast<const tessera_proc_t *>(proc->proc_endpoint[BENCH_STATIC_TAG]);
        }
        benchmark::DoNotOptimize(proc);
    }
    finish(state);
}
#endif

#if TESSERA_DYNAMIC_ENDPOINTS
void Latency_DynamicTag(benchmark::State &state)
{
    const Procs &p = procs();
    for (auto _ : state) {
        const tessera_proc_t *proc = p.procs[p.order[0]];
        for (std::size_t n = 0; n < kProcs; ++n) {
            proc = static_cast<const tessera_proc_t *>(tessera_proc_endpoint_get(proc, p.dynamic_tag));
        }
        benchmark::DoNotOptimize(proc);
    }
    finish(state);
}
#endif

// The three out-of-line reads must agree with the inline ones before any figure is worth printing.
bool reads_agree()
{
    const Procs &p = procs();
    for (std::uint32_t i = 0; i < kProcs; ++i) {
        if (endpoint_lookup_read_plain(p.plain[i]) != p.plain[i]->proc_bml) {
            return false;
        }
#if TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0
        if (endpoint_lookup_read_static(p.procs[i]) != p.procs[i]->proc_endpoint[BENCH_STATIC_TAG]) {
            return false;
        }
#endif
        if (p.dynamic_tag >= 0 &&
            endpoint_lookup_read_dynamic(p.procs[i], p.dynamic_tag) !=
                tessera_proc_endpoint_get(p.procs[i], p.dynamic_tag)) {
            return false;
        }
    }
    return true;
}

} // namespace

BENCHMARK(Throughput_PlainField);
#if TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0
BENCHMARK(Throughput_StaticSlot);
BENCHMARK(Throughput_StaticTagAccessor);
#endif
#if TESSERA_DYNAMIC_ENDPOINTS
BENCHMARK(Throughput_DynamicTag);
#endif
BENCHMARK(Latency_PlainField);
#if TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0
BENCHMARK(Latency_StaticSlot);
#endif
#if TESSERA_DYNAMIC_ENDPOINTS
BENCHMARK(Latency_DynamicTag);
#endif

int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    if (!reads_agree()) {
        std::fprintf(stderr, "endpoint_lookup_bench: the lookups disagree; figures would be meaningless\n");
        return 1;
    }
    std::printf("procs: %zu, static tag: %d (%s) of %d, dynamic endpoints: %s%s\n", kProcs, BENCH_STATIC_TAG,
                TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0 ? tessera_endpoint_tag_name(BENCH_STATIC_TAG) : "none",
                TESSERA_ENDPOINT_TAG_STATIC_COUNT, TESSERA_DYNAMIC_ENDPOINTS ? "on" : "off",
                TESSERA_ENDPOINT_TAG_STATIC_COUNT > 0 ? "" : " (no static tag claimed: static cases skipped)");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
