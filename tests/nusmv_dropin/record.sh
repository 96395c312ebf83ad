#!/bin/sh
# Records NuSMV 2.5.4's answers to the sessions of cases.txt into expected/ (stdout without
# NuSMV's banner, and the exit status; for the `range_*` cases also stderr). Needs NUSMV (the NuSMV binary); run from anywhere.
set -e
: "${NUSMV:?set NUSMV to the NuSMV 2.5.4 binary}"
cd "$(dirname "$0")"
mkdir -p expected
grep -v '^#' cases.txt | while IFS='|' read -r name args; do
  name=$(echo "$name" | tr -d ' ')
  [ -n "$name" ] || continue
  set +e
  # shellcheck disable=SC2086
  "$NUSMV" $args </dev/null >"expected/$name.raw" 2>"expected/$name.err"
  echo $? >"expected/$name.status"
  # The range-check cases keep NuSMV's stderr (its message is what the case is about).
  case "$name" in
    range_*) mv "expected/$name.err" "expected/$name.stderr" ;;
    *) rm "expected/$name.err" ;;
  esac
  set -e
  # NuSMV's banner ends with the CUDD copyright line; keep what follows.
  if grep -q '^\*\*\* Copyright (c) 1995-2004' "expected/$name.raw"; then
    sed '1,/^\*\*\* Copyright (c) 1995-2004/d' "expected/$name.raw" >"expected/$name.stdout"
  else
    cp "expected/$name.raw" "expected/$name.stdout"
  fi
  rm "expected/$name.raw"
done
