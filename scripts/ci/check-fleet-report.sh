#!/usr/bin/env bash
# Fails unless the fleet tests (dev.triage.fleet, against a real redis-server) really ran on each Boot line
# built: at least one test, none skipped, none failed. Arguments: the modules whose surefire reports to read
# (default: both lines').
set -euo pipefail
modules=("$@")
[ "${#modules[@]}" -gt 0 ] || modules=(autoconfigure boot4/autoconfigure-tests)
for module in "${modules[@]}"; do
  reports=("$module"/target/surefire-reports/TEST-dev.triage.fleet.*.xml)
  [ -e "${reports[0]}" ] || { echo "no fleet test report in $module: the fleet tests did not run" >&2; exit 1; }
  python3 - "$module" "${reports[@]}" <<'PY'
import sys, xml.etree.ElementTree as ET
tests = skipped = failed = 0
for path in sys.argv[2:]:
    suite = ET.parse(path).getroot()
    tests += int(suite.get("tests", 0))
    skipped += int(suite.get("skipped", 0))
    failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
print(f"{sys.argv[1]}: fleet tests: {tests} run, {skipped} skipped, {failed} failed")
if tests == 0 or skipped or failed:
    sys.exit("the fleet tests must run against redis-server, not be skipped")
PY
done
