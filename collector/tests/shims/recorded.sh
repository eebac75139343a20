#!/bin/sh
# Shim for a command-line tool: prints the output recorded for exactly these
# arguments. Usage (from a node's bin/<tool> wrapper):
#     recorded.sh NODE_DIR TOOL [ARGS...]
# Recordings are lines `TOOL ARGS|output line` in NODE_DIR/recorded.txt, then
# in the recorded.txt of the shim set named in NODE_DIR/base (if any); the
# first file that has the key wins, so a node overrides its base per command.
# (Trailing blank lines of an output are not kept.)
# A recorded line `@sleep N` sleeps instead of printing (to test timeouts).
# With ROLL_DOCTOR_SHIM_LOG set, every call is appended to that file (the
# tests check that the collector only ever runs query forms).
dir=$1
tool=$2
shift 2
key="$tool${*:+ $*}"
if [ -n "${ROLL_DOCTOR_SHIM_LOG:-}" ]; then
    printf '%s\n' "$key" >>"$ROLL_DOCTOR_SHIM_LOG"
fi
# lookup FILE: prints the recording of $key from FILE; false when it has none.
lookup() {
    [ -f "$1" ] || return 1
    out=$(awk -v k="$key|" 'index($0, k) == 1 { print substr($0, length(k) + 1); found = 1 } END { exit !found }' "$1") || return 1
    case $out in
        "@sleep "*) exec sleep "${out#@sleep }" ;; # exec: the hung "tool" is timeout's own child
        *) printf '%s\n' "$out" ;;
    esac
}
lookup "$dir/recorded.txt" && exit 0
if [ -f "$dir/base" ]; then
    IFS= read -r base <"$dir/base"
    lookup "${dir%/*}/$base/recorded.txt" && exit 0
fi
printf '%s: no recording for: %s\n' "$tool" "$key" >&2
exit 1
