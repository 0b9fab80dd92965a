#!/usr/bin/env bash
# usage: tessera_info_cases.sh <tessera_info> <case>
# Runs tessera_info with a private HOME so that no user file leaks in, and checks one behaviour.
set -uo pipefail
info=$1 case=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
mkdir -p "$HOME"
unset $(env | sed -n 's/^\(TESSERA_MCA_[^=]*\)=.*/\1/p') 2>/dev/null || true

fail() { echo "FAIL [$case]: $*" >&2; exit 1; }
run() { "$info" "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
rc() { cat "$tmp/rc"; }

case $case in
lists_every_param)
  run --param all all --level 9 --parsable
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(cat "$tmp/err")"
  n=$(grep -cE ':param:[a-z0-9_]+:value:' "$tmp/out")
  [ "$n" -ge 10 ] || fail "only $n parameters listed"
  # every listed parameter has all its facts
  for f in source level type help status; do
    m=$(grep -cE ":param:[a-z0-9_]+:$f:" "$tmp/out")
    [ "$m" -ge "$n" ] || fail "$f given for $m of $n parameters"
  done
  # the core's own parameters are among them
  for p in mca_component_path mca_component_show_load_errors mca_param_files btl plm trace; do
    grep -q ":param:$p:value:" "$tmp/out" || fail "parameter $p missing"
  done
  # level 1 shows fewer than level 9
  run --param all all --parsable
  n1=$(grep -cE ':param:[a-z0-9_]+:value:' "$tmp/out")
  [ "$n1" -lt "$n" ] || fail "level 1 lists $n1, level 9 $n"
  echo "$n parameters at level 9, $n1 at level 1" ;;
parsable_format)
  run --param btl base --level 9 --parsable
  grep -q '^mca:btl:base:param:btl:source:default$' "$tmp/out" || fail "no btl source line: $(head "$tmp/out")"
  grep -qE '^mca:btl:base:param:btl:type:string$' "$tmp/out" || fail "btl type"
  grep -qE '^mca:btl:base:param:btl:level:[1-9]$' "$tmp/out" || fail "btl level"
  grep -qE '^mca:btl:base:param:[a-z_]+:enumerator:value:[0-9]+:[a-z_]+$' "$tmp/out" \
    || fail "no enumerator lines for an enum parameter"
  run --param all all --level 9 --parsable
  bad=$(grep -vE '^mca:[a-z0-9_]+:[a-z0-9_]+:param:[a-z0-9_]+:[a-z_]+(:.*)?$' "$tmp/out" | head -3)
  [ -z "$bad" ] || fail "malformed lines: $bad" ;;
text_format)
  run --param btl base --level 9
  grep -qE '^ *MCA btl base: parameter "btl" \(current value: ".*", data source: default, level: [1-9] [a-z]+/[a-z]+, type: string\)$' "$tmp/out" \
    || fail "readable line not in ompi_info form: $(head -3 "$tmp/out")"
  grep -q 'Valid values: ' "$tmp/out" || fail "no valid values shown for an enum" ;;
ranges)
  # a parameter registered as a row shows its range in every format; one without a range shows none
  run --param btl tcp --level 9 --parsable
  grep -qx 'mca:btl:tcp:param:btl_tcp_links:range:min:1' "$tmp/out" || fail "no min: $(grep links "$tmp/out")"
  grep -qx 'mca:btl:tcp:param:btl_tcp_links:range:max:16' "$tmp/out" || fail "no max"
  grep -qx 'mca:btl:tcp:param:btl_tcp_max_send_size:range:max:64M' "$tmp/out" || fail "size bound not canonical"
  ! grep -q 'btl_tcp_if_include:range' "$tmp/out" || fail "a string has a range"
  run --param btl tcp --level 9
  grep -A3 '"btl_tcp_links"' "$tmp/out" | grep -q 'Valid range: 1\.\.16' || fail "text: $(grep -A3 links "$tmp/out")"
  grep -A5 '"btl_tcp_poll_every"' "$tmp/out" | grep -q 'Valid range: at least 1' || fail "one-sided range"
  run --param btl tcp --level 9 --json
  python3 - "$tmp/out" <<'PY' || exit 1
import json, sys
params = {p["name"]: p for p in json.load(open(sys.argv[1]))["params"]}
assert params["btl_tcp_links"]["range"] == {"min": "1", "max": "16"}, params["btl_tcp_links"]
assert params["btl_tcp_sndbuf"]["range"] == {"max": "1G"}, params["btl_tcp_sndbuf"]
assert "range" not in params["btl_tcp_if_include"]
PY
  run --mca btl_tcp_links 17 --param btl tcp --level 9 --parsable
  grep -qx 'mca:btl:tcp:param:btl_tcp_links:value:17' "$tmp/out" || fail "the value set is shown as it is" ;;
json_valid)
  run --all --json
  [ "$(rc)" = 0 ] || fail "exit $(rc)"
  python3 - "$tmp/out" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
for key in ("config", "paths", "frameworks", "params"):
    assert key in doc, f"JSON lacks {key}"
names = {f["name"] for f in doc["frameworks"]}
assert {"plm", "btl", "dte", "coll", "osc", "io", "translator", "trace"} <= names, names
p = next(p for p in doc["params"] if p["name"] == "mca_component_path")
assert p["source"] == "default" and p["type"] == "string", p
print(len(doc["params"]), "parameters,", len(names), "frameworks in JSON")
PY
  ;;
unknown_env_name)
  TESSERA_MCA_mca_component_pth=/x run --param mca all
  grep -q 'mca_component_pth' "$tmp/err" || fail "no warning about the unknown name: $(cat "$tmp/err")"
  grep -q 'mca_component_path' "$tmp/err" || fail "warning does not name the real parameter: $(cat "$tmp/err")"
  grep -qi 'environment' "$tmp/err" || fail "warning does not say where the name came from"
  cat "$tmp/err" ;;
bogus_component)
  run --mca btl bogus
  [ "$(rc)" != 0 ] || fail "exit 0 for an unknown component"
  grep -q 'bogus' "$tmp/err" || fail "error does not name the value"
  grep -q 'self' "$tmp/err" || fail "error does not name the existing components: $(cat "$tmp/err")"
  run --mca btl 'self,^self'
  [ "$(rc)" != 0 ] || fail "exit 0 for a misplaced ^"
  grep -q '\^' "$tmp/err" || fail "error does not explain the ^ rule: $(cat "$tmp/err")"
  cat "$tmp/err" ;;
bad_value_names_source)
  TESSERA_MCA_btl_base_verbose=loud run --param btl base
  [ "$(rc)" != 0 ] || fail "exit 0 for a bad int value"
  grep -q 'btl_base_verbose' "$tmp/err" && grep -q 'loud' "$tmp/err" && grep -q 'environment' "$tmp/err" \
    || fail "error lacks name, value or source: $(cat "$tmp/err")"
  cat "$tmp/err" ;;
tune_and_sections)
  printf '# tuning\nbtl = self\n\n[btl_base]\nverbose = 5\n' >"$tmp/t.conf"
  run --tune "$tmp/t.conf" --param btl base --level 9 --parsable
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(cat "$tmp/err")"
  grep -qx 'mca:btl:base:param:btl:value:self' "$tmp/out" || fail "tune value not applied"
  grep -qx "mca:btl:base:param:btl:source:file:$tmp/t.conf:2" "$tmp/out" || fail "source not file:line: $(grep ':btl:source' "$tmp/out")"
  grep -qx "mca:btl:base:param:btl_base_verbose:source:file:$tmp/t.conf:5" "$tmp/out" || fail "section key source wrong"
  printf 'btl = self\nthis line is not a setting\n' >"$tmp/bad.conf"
  run --tune "$tmp/bad.conf"
  [ "$(rc)" != 0 ] || fail "exit 0 for a malformed INI line"
  grep -q "$tmp/bad.conf:2" "$tmp/err" || fail "INI error lacks file:line: $(cat "$tmp/err")" ;;
show_failed)
  mkdir -p "$tmp/comp"
  echo "not a shared object" >"$tmp/comp/mca_btl_junk.so"
  run --mca mca_component_path "$tmp/comp" --mca mca_component_show_load_errors none --show-failed --parsable
  [ "$(rc)" = 0 ] || fail "a bad DSO made tessera_info fail: $(cat "$tmp/err")"
  grep -q "^failed:btl:junk:file:$tmp/comp/mca_btl_junk.so$" "$tmp/out" || fail "junk DSO not reported: $(cat "$tmp/out")"
  grep -q '^failed:btl:junk:reason:.' "$tmp/out" || fail "no reason given" ;;
path)
  run --path pkglibdir
  [ "$(rc)" = 0 ] || fail "exit $(rc)"
  d=$(sed -n 's/^ *pkglibdir: //p' "$tmp/out")
  [ -d "$d" ] || fail "pkglibdir '$d' does not exist"
  ls "$d"/mca_*.so >/dev/null || fail "no component DSOs in $d" ;;
select)
  run --select plm --select btl --parsable
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(cat "$tmp/err")"
  grep -q '^selected:plm:fork:priority:' "$tmp/out" || fail "plm fork not selected: $(cat "$tmp/out")"
  grep -q '^selected:btl:self:priority:' "$tmp/out" || fail "btl self not selected" ;;
precedence_cmdline_over_env)
  TESSERA_MCA_btl_base_verbose=3 run --mca btl_base_verbose 7 --param btl base --level 9 --parsable
  grep -qx 'mca:btl:base:param:btl_base_verbose:value:7' "$tmp/out" || fail "command line did not win"
  grep -qx 'mca:btl:base:param:btl_base_verbose:source:command line' "$tmp/out" || fail "source not 'command line'"
  TESSERA_MCA_btl_base_verbose=3 run --param btl base --level 9 --parsable
  grep -qx 'mca:btl:base:param:btl_base_verbose:source:environment' "$tmp/out" || fail "source not 'environment'" ;;
bad_options)
  run --frobnicate
  [ "$(rc)" = 2 ] || fail "unknown option exit $(rc)"
  grep -q 'frobnicate' "$tmp/err" || fail "error does not name the option"
  run --mca btl
  [ "$(rc)" = 2 ] || fail "--mca without value exit $(rc)"
  run --level 12 --param all all
  [ "$(rc)" = 2 ] || fail "--level 12 accepted"
  run --param btll all
  [ "$(rc)" = 2 ] && grep -q "btl" "$tmp/err" || fail "unknown framework not named with suggestion: $(cat "$tmp/err")" ;;
coverage)
  # Every function of the ABI once, as implemented or missing, and counts that add up, in each view.
  run --coverage --parsable
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(cat "$tmp/err")"
  impl=$(sed -n 's/^coverage:implemented://p' "$tmp/out")
  miss=$(sed -n 's/^coverage:missing://p' "$tmp/out")
  [ -n "$impl" ] && [ -n "$miss" ] || fail "no counts: $(head -3 "$tmp/out")"
  [ $((impl + miss)) = 664 ] || fail "$impl + $miss functions, expected 664"
  [ "$(grep -c '^coverage:function:MPI_[A-Za-z0-9_]*:implemented$' "$tmp/out")" = "$impl" ] || fail "implemented list != count"
  [ "$(grep -c '^coverage:function:MPI_[A-Za-z0-9_]*:missing$' "$tmp/out")" = "$miss" ] || fail "missing list != count"
  for f in MPI_Init MPI_Finalize MPI_Comm_rank MPI_Comm_size MPI_Abort MPI_Wtime MPI_Error_string; do
    grep -qx "coverage:function:$f:implemented" "$tmp/out" || fail "$f not implemented"
  done
  grep -qx 'coverage:function:MPI_Send:implemented' "$tmp/out" || fail "MPI_Send not implemented"
  grep -qx 'coverage:function:MPI_Win_lock:implemented' "$tmp/out" || fail "MPI_Win_lock not implemented"
  grep -qx 'coverage:function:MPI_Win_allocate_shared:implemented' "$tmp/out" || fail "MPI_Win_allocate_shared not implemented"
  grep -qx 'coverage:function:MPI_Session_init:missing' "$tmp/out" || fail "MPI_Session_init not listed as missing"
  [ "$(grep -c '^coverage:function:' "$tmp/out")" = 664 ] || fail "not 664 function lines"
  grep -q '^mca:' "$tmp/out" && fail "--coverage also printed components"
  run --coverage --json
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["coverage"]; assert c["implemented"]==int(sys.argv[2]) and c["missing"]==int(sys.argv[3]) and len(c["functions"])==664, c["implemented"]' \
    "$tmp/out" "$impl" "$miss" || fail "JSON view disagrees"
  run --coverage
  grep -qE "Implemented: $impl \(" "$tmp/out" || fail "text view: $(head -4 "$tmp/out")"
  echo "coverage: $impl implemented, $miss missing" ;;
*) fail "unknown case" ;;
esac
echo "ok [$case]"
