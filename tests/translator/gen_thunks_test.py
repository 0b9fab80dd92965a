#!/usr/bin/env python3
"""Unit tests of ompi/api/gen_thunks.py, the translator generator: what it reads from a runtime's header
(macro expansions), the special-integer mappings it builds (each a permutation of int: no value lost
either way), and what it generates when a runtime differs from what the installed ones happen to do
(an output string limit larger than the ABI's must be truncated; a prototype that does not match must
not be called). Uses what the build's extractors printed (ompi_constants.tsv, mpich_constants.tsv).

usage: gen_thunks_test.py --api-dir ompi/api --extracted <tsv>... (exits 77 when no extractor ran)
"""
import argparse
import copy
import sys
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
ARGS = None


class Expansions(unittest.TestCase):
    def test_literals_and_symbols(self):
        g = gen_thunks
        self.assertEqual(g.parse_expansion("((MPI_Comm)0x44000000)"), g.RtValue("int", 0x44000000))
        self.assertEqual(g.parse_expansion("(void *) -1"), g.RtValue("int", -1))
        self.assertEqual(g.parse_expansion("((MPI_Status *) 0)"), g.RtValue("int", 0))
        self.assertEqual(g.parse_expansion("(-32766)"), g.RtValue("int", -32766))
        self.assertEqual(g.parse_expansion("((MPI_Comm) ((void *) &(ompi_mpi_comm_world)))"),
                         g.RtValue("sym", symbol="ompi_mpi_comm_world"))
        self.assertEqual(g.parse_expansion("((MPI_Comm_copy_attr_function *)MPIR_Dup_fn)"),
                         g.RtValue("sym", symbol="MPIR_Dup_fn"))
        self.assertEqual(g.parse_expansion("OMPI_C_MPI_COMM_DUP_FN"), g.RtValue("sym", symbol="OMPI_C_MPI_COMM_DUP_FN"))
        with self.assertRaises(g.GenError):
            g.parse_expansion("MPI_X + 1")


class Generated(unittest.TestCase):
    def each_runtime(self):
        for path in ARGS.extracted:
            rt = Path(path).name.split("_")[0]
            yield rt, gen_thunks.read_facts(Path(path), rt)

    def test_maps_are_permutations(self):
        """Every listed constant goes to the runtime's value, and back; every other int comes back as it went."""
        for rt, facts in self.each_runtime():
            conv = gen_thunks.Conversions(api, facts)
            lists = [(list(api.sets["error"]), "error"), (["MPI_ANY_SOURCE", "MPI_PROC_NULL", "MPI_ROOT"], "rank"),
                     (["MPI_ANY_TAG"], "tag"), (list(api.sets["keyval"]) + ["MPI_KEYVAL_INVALID"], "keyval"),
                     (list(api.sets["thread_level"]), "thread"), (list(api.sets["combiner"]), "combiner")]
            for names, label in lists:
                conv.int_map(names, label)
                _, a2r, r2a = conv.maps[tuple(names)]
                for n in names:
                    r = facts.int_value(n)
                    if r is not None and n in api.constants:
                        self.assertEqual(a2r.get(api.constants[n].value, api.constants[n].value), r, f"{rt} {n}")
                probe = set(range(-40000, 40000, 7)) | set(a2r) | set(r2a)
                for x in probe:
                    y = a2r.get(x, x)
                    self.assertEqual(r2a.get(y, y), x, f"{rt} {label}: {x} -> {y} does not come back")

    def test_truncates_a_longer_runtime_string(self):
        """A runtime whose MPI_MAX_ERROR_STRING exceeds the ABI's writes into a buffer of its size."""
        for rt, facts in self.each_runtime():
            facts = copy.deepcopy(facts)
            facts.consts["MPI_MAX_ERROR_STRING"] = gen_thunks.RtValue("int", 4096)
            writer = gen_thunks.ThunkWriter(api, gen_thunks.Conversions(api, facts), rt, "ns", "0")
            code = "\n".join(writer.forward(api.function("MPI_Error_string")))
            self.assertIn("char c_string[4096]", code)
            self.assertIn("copy_string(string, 512, c_string, resultlen)", code)

    def test_mismatching_prototype_not_called(self):
        for rt, facts in self.each_runtime():
            facts = copy.deepcopy(facts)
            facts.funcs["MPI_Send"] = False
            source = gen_thunks.ThunkWriter(api, gen_thunks.Conversions(api, facts), rt, "ns", "0").write()
            self.assertNotIn("t_Send(", source)
            self.assertNotIn("fn.Send(", source)
            self.assertIn("t_Recv(", source)

    def test_status_layout(self):
        for rt, facts in self.each_runtime():
            hidden = facts.status_size - 12
            self.assertLessEqual(hidden, 20, f"{rt}: the runtime's hidden status fields fit in MPI_internal")
            header = gen_thunks.gen_facts_header(api, gen_thunks.Conversions(api, facts), "ns", rt)
            self.assertIn(f"unsigned char bytes[{facts.status_size}]", header)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--api-dir", required=True, type=Path)
    ap.add_argument("--extracted", nargs="*", default=[])
    ARGS, rest = ap.parse_known_args()
    sys.path.insert(0, str(ARGS.api_dir))
    import gen_thunks  # noqa: E402
    import mpi_api  # noqa: E402
    api = mpi_api.load(ARGS.api_dir / "mpi_api.txt", ARGS.api_dir / "constants.tsv")
    ARGS.extracted = [p for p in ARGS.extracted if Path(p).exists()]
    if not ARGS.extracted:
        print("no extractor output: skipped")
        sys.exit(77)
    result = unittest.main(argv=[sys.argv[0]] + rest, exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)
