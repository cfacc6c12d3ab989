#!/usr/bin/env bash
# bench-profiles.sh: the model calls, tokens and list-price dollars each
# profile (light, standard, thorough; docs/profiles.md) spends per accepted
# task, every case of the shipped calibration sets (testdata/calibration/
# cases.jsonl and quixbugs/cases.jsonl) run as a task through
# `run --profile P` with the scripted fake model (cmd/tribunal-session
# TestProfilesCallsPerAccepted; its script, the same for every profile, is
# described at benchCaseScript). The figures compare the profiles' loops on
# one jury's answers; they say nothing of how well a model judges.
#
# Environment: TRIBUNAL_BENCH_CASES (all) bounds the cases taken from each
# set.
#
# Measured 2026-12-07 on the shared 2-CPU build machine (122 cases, 100
# accepted under each profile; 6 minutes): per accepted task, light 5.82
# calls, 242,356 tokens, $0.89; standard 8.48, 287,896, $1.43; thorough
# 16.96, 555,016, $3.02 (docs/profiles.md).
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
TRIBUNAL_BENCH_PROFILES=1 go test -count=1 -timeout 60m -run '^TestProfilesCallsPerAccepted$' -v ./cmd/tribunal-session |
	grep -E 'profile [a-z]+ +tasks|FAIL|^ok ' | sed 's/^ *bench_profiles_test.go:[0-9]*: //' || true
