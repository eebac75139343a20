#!/bin/sh
# roll-doctor-collect.sh: collect one node's state for roll-doctor.
#
# POSIX sh (runs under dash, bash, busybox ash). Read-only: it runs query
# commands only (`npu-smi info`, `hccn_tool ... -g`, `cat`, `tail`, `ss`,
# `pip list`, `env`, `ray status`) and never sets, resets, installs, kills
# or writes anything; with `-o FILE` it writes that one file.
#
# Every command runs under `timeout` (when present) and with stdin from
# /dev/null, so piping this script into `sh -s` (over ssh, from Ray) is safe.
# A command whose tool is absent is skipped with one line saying so.
#
# Output: one text stream of sections, the format roll-doctor reads:
#   ===== roll-doctor node: <name> =====
#   ===== roll-doctor: <the exact command that was run> =====
#   <its output, stdout+stderr>
#
# Environment (all optional):
#   ROLL_DOCTOR_NODE          node name in the header (default: the host name)
#   ROLL_DOCTOR_TIMEOUT       seconds per command (default 20)
#   ROLL_DOCTOR_RAY_LOG_DIR   Ray log directory (default
#                             ${RAY_TMPDIR:-${TMPDIR:-/tmp}}/ray/session_latest/logs)
#   ROLL_DOCTOR_SKIP_RAY_STATUS=1  leave out `ray status` (the Ray collector
#                             runs it once on the head instead)
#   ROLL_DOCTOR_RAY_LOGS      Ray log files to tail (default: raylet.out gcs_server.out)
#   ROLL_DOCTOR_DRIVER_PID    leave out the driver log of this process id
#   ROLL_DOCTOR_ROOT          prefix for fixed system paths (/usr/local/...,
#                             /root/..., /dev/davinci*); tests only, default empty
#
# Secrets: environment values whose name contains TOKEN, KEY, SECRET,
# PASSWORD, PASSWD, CREDENTIAL or AUTH, and values shaped like tokens
# (hf_..., sk-..., long base64/hex, user:password@ in URLs, Bearer ...) are
# replaced by *** before anything is printed.

usage() {
    # shellcheck disable=SC2016 # literal text
    printf '%s\n' \
        'usage: roll-doctor-collect.sh [-o FILE] [-h]' \
        '' \
        "Collects this node's NPU, HCCL link, network, stack-version, environment," \
        'Ray and log state for roll-doctor, read-only, as one text stream.' \
        '' \
        '  -o FILE   write to FILE instead of standard output' \
        '  -h        show this help' \
        '' \
        'One node:     sh roll-doctor-collect.sh -o node.txt' \
        'Over ssh:     for h in n1 n2 n3; do ssh $h sh -s < roll-doctor-collect.sh; done > bundle.txt' \
        'Whole cluster through Ray: python3 roll-doctor-ray-collect.py --expect N -o bundle.txt' \
        '' \
        'Environment: ROLL_DOCTOR_NODE (node name), ROLL_DOCTOR_TIMEOUT (seconds per' \
        'command, default 20), ROLL_DOCTOR_RAY_LOG_DIR, ROLL_DOCTOR_SKIP_RAY_STATUS=1.' \
        'Secret-looking environment values are printed as ***. Nothing is changed.'
}

OUT=""
while [ $# -gt 0 ]; do
    case $1 in
        -h | --help) usage; exit 0 ;;
        -o)
            if [ $# -lt 2 ]; then usage >&2; exit 2; fi
            OUT=$2; shift ;;
        -o?*) OUT=${1#-o} ;;
        *) printf 'roll-doctor-collect.sh: unknown argument: %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

ROOT=${ROLL_DOCTOR_ROOT:-}
T=${ROLL_DOCTOR_TIMEOUT:-20}
case $T in '' | *[!0-9]*) T=20 ;; esac
NODE=${ROLL_DOCTOR_NODE:-}
RAY_LOG_DIR=${ROLL_DOCTOR_RAY_LOG_DIR:-${RAY_TMPDIR:-${TMPDIR:-/tmp}}/ray/session_latest/logs}
RAY_LOGS=${ROLL_DOCTOR_RAY_LOGS:-raylet.out gcs_server.out}
SKIP_RAY_STATUS=${ROLL_DOCTOR_SKIP_RAY_STATUS:-}
DRIVER_PID=${ROLL_DOCTOR_DRIVER_PID:-none}
# The collector's own settings are not part of the node's environment.
unset ROLL_DOCTOR_ROOT ROLL_DOCTOR_TIMEOUT ROLL_DOCTOR_NODE ROLL_DOCTOR_RAY_LOG_DIR ROLL_DOCTOR_RAY_LOGS \
    ROLL_DOCTOR_SKIP_RAY_STATUS ROLL_DOCTOR_DRIVER_PID
NL='
'

have() {
    case $1 in
        /*) [ -x "$1" ] ;;
        *) command -v "$1" >/dev/null 2>&1 ;;
    esac
}

# `timeout` when it works here (GNU coreutils, busybox), probed with a program
# file: `true` is a builtin in some shells, and timeout needs a file.
TO=""
_probe=""
for _c in true sh; do
    case $(command -v "$_c" 2>/dev/null) in /*) _probe=$_c; break ;; esac
done
if [ "$_probe" = sh ]; then _probe="sh -c :"; fi
if have timeout && [ -n "$_probe" ]; then
    # shellcheck disable=SC2086 # $_probe is split into words on purpose
    if timeout -k 5 5 $_probe </dev/null >/dev/null 2>&1; then
        TO="timeout -k 5 $T"
    elif timeout 5 $_probe </dev/null >/dev/null 2>&1; then
        TO="timeout $T"
    fi
fi

# run CMD ARGS...: stdin from /dev/null, under the timeout; status 124 = timed out.
run() {
    if [ -n "$TO" ]; then
        $TO "$@" </dev/null
    else
        "$@" </dev/null
    fi
    _run_rc=$?
    # 124: GNU timeout; 137: killed after -k; 143: busybox timeout's TERM.
    if [ -n "$TO" ] && { [ "$_run_rc" -eq 124 ] || [ "$_run_rc" -eq 137 ] || [ "$_run_rc" -eq 143 ]; }; then
        return 124
    fi
    return "$_run_rc"
}

section() { printf '===== roll-doctor: %s =====\n' "$1"; }
skipped() { printf '[roll-doctor] skipped: %s not found\n' "$1"; }
timed_out() { printf '[roll-doctor] timed out after %ss\n' "$T"; }
# Prints captured output (command substitution dropped its trailing newlines).
emit() { if [ -n "$1" ]; then printf '%s\n' "$1"; fi; }

# cmd_section MARKER TOOL CMD ARGS...: one section running CMD, stderr included.
cmd_section() {
    section "$1"
    _tool=$2
    shift 2
    if ! have "$_tool"; then skipped "$_tool"; return 0; fi
    _out=$(run "$@" 2>&1)
    _rc=$?
    emit "$_out"
    if [ "$_rc" -eq 124 ]; then timed_out; fi
    return 0
}

# trim STRING: sets _t to STRING without leading/trailing blanks.
trim() {
    _t=$1
    _t=${_t#"${_t%%[! 	]*}"}
    _t=${_t%"${_t##*[! 	]}"}
}

is_num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; return 0; }

# find_tool NAME PATH...: sets TOOL (what to run) and SHOW (what the marker
# says): NAME when it is on PATH, else the first executable fixed path.
find_tool() {
    TOOL=""
    SHOW=$1
    if have "$1"; then TOOL=$1; return 0; fi
    _name=$1
    shift
    for _p in "$@"; do
        if [ -x "$ROOT$_p" ] && [ ! -d "$ROOT$_p" ]; then TOOL=$ROOT$_p; SHOW=$_p; return 0; fi
    done
    SHOW=$_name
    return 1
}

# ---------------------------------------------------------------- node name
node_name() {
    if [ -n "$NODE" ]; then printf '%s' "$NODE"; return; fi
    if have hostname; then
        _h=$(run hostname 2>/dev/null)
        if [ -n "$_h" ]; then printf '%s' "$_h"; return; fi
    fi
    if [ -r /proc/sys/kernel/hostname ]; then
        IFS= read -r _h </proc/sys/kernel/hostname
        if [ -n "$_h" ]; then printf '%s' "$_h"; return; fi
    fi
    printf 'unknown'
}

# ------------------------------------------------------------ host addresses
addresses() {
    if have hostname; then
        _out=$(run hostname -I 2>&1)
        _rc=$?
        if [ "$_rc" -eq 0 ] && [ -n "$_out" ]; then
            section "hostname -I"
            emit "$_out"
            return 0
        fi
        if [ "$_rc" -eq 124 ]; then section "hostname -I"; timed_out; return 0; fi
    fi
    # hostname -I is a Debian/Red Hat extension; busybox and others lack it.
    if have ip; then
        cmd_section "ip -4 -o addr show" ip ip -4 -o addr show
    elif have hostname; then
        cmd_section "hostname -I" hostname hostname -I
    else
        section "hostname -I"
        skipped hostname
    fi
}

# ------------------------------------------------------------- NPU discovery
# Sets NPU_IDS (npu-smi's NPU IDs) and NPU_N (logical devices = hccn_tool -i
# range): the sum of `npu-smi info -l` "Chip Count" (A3 boards carry two chips
# per NPU ID, so 8 NPU IDs are 16 devices), else its "Total Count", else the
# /dev/davinci[0-9]* devices, else 8 (an Atlas A2 server).
discover_npus() {
    NPU_IDS=""
    NPU_N=0
    _total=""
    _chips=0
    if [ -n "$NPU_SMI" ]; then
        _l=$(run "$NPU_SMI" info -l 2>/dev/null)
        set -f
        _old_ifs=$IFS
        IFS=$NL
        for _line in $_l; do
            case $_line in
                *"Total Count"*:*) trim "${_line#*:}"; if is_num "$_t"; then _total=$_t; fi ;;
                *"NPU ID"*:*) trim "${_line#*:}"; if is_num "$_t"; then NPU_IDS="$NPU_IDS $_t"; fi ;;
                *"Chip Count"*:*) trim "${_line#*:}"; if is_num "$_t"; then _chips=$((_chips + _t)); fi ;;
            esac
        done
        IFS=$_old_ifs
        set +f
    fi
    if [ "$_chips" -gt 0 ]; then
        NPU_N=$_chips
    elif [ -n "$_total" ] && [ "$_total" -gt 0 ]; then
        NPU_N=$_total
    else
        for _d in "$ROOT"/dev/davinci[0-9]*; do
            if [ -e "$_d" ]; then NPU_N=$((NPU_N + 1)); fi
        done
    fi
    if [ "$NPU_N" -le 0 ]; then NPU_N=8; fi
    if [ -z "$NPU_IDS" ]; then
        _i=0
        while [ "$_i" -lt "$NPU_N" ]; do NPU_IDS="$NPU_IDS $_i"; _i=$((_i + 1)); done
    fi
}

npu_health() {
    if [ -z "$NPU_SMI" ]; then
        section "$NPU_SHOW info -t health -i 0"
        skipped npu-smi
        return 0
    fi
    for _id in $NPU_IDS; do
        cmd_section "$NPU_SHOW info -t health -i $_id" "$NPU_SMI" "$NPU_SMI" info -t health -i "$_id"
    done
}

# hccn_loop "ARGS" [GREP]: `for i in {0..N-1}; do hccn_tool -i $i ARGS; done`,
# run as a POSIX loop, one timeout per card; stops at the first timeout.
hccn_loop() {
    _args=$1
    _grep=${2:-}
    _last=$((NPU_N - 1))
    if [ -n "$_grep" ]; then
        section "for i in {0..$_last}; do $HCCN_SHOW -i \$i $_args | grep $_grep; done"
    else
        section "for i in {0..$_last}; do $HCCN_SHOW -i \$i $_args; done"
    fi
    if [ -z "$HCCN" ]; then skipped hccn_tool; return 0; fi
    if [ -n "$_grep" ] && ! have grep; then skipped grep; return 0; fi
    _i=0
    while [ "$_i" -lt "$NPU_N" ]; do
        # shellcheck disable=SC2086 # $_args is split into words on purpose (-link -g)
        _out=$(run "$HCCN" -i "$_i" $_args 2>&1)
        _rc=$?
        if [ -n "$_grep" ]; then
            _out=$(printf '%s\n' "$_out" | grep "$_grep")
        fi
        emit "$_out"
        if [ "$_rc" -eq 124 ]; then timed_out; break; fi
        _i=$((_i + 1))
    done
    return 0
}

# ------------------------------------------------------------------ versions
# real PATH: sets _r to where PATH is read (fixed system paths under $ROOT).
real() {
    case $1 in
        /usr/local/* | /root/* | /dev/*) _r=$ROOT$1 ;;
        *) _r=$1 ;;
    esac
}

# cat_file PATH [quiet]: `cat PATH`; with quiet, nothing at all when the file
# does not exist.
cat_file() {
    real "$1"
    if [ -n "${2:-}" ] && [ ! -f "$_r" ]; then return 0; fi
    section "cat $1"
    if ! have cat; then skipped cat; return 0; fi
    _out=$(run cat "$_r" 2>&1)
    _rc=$?
    emit "$_out"
    if [ "$_rc" -eq 124 ]; then timed_out; fi
    return 0
}

# Where the installers write their version files (see collector/README.md).
versions() {
    cat_file /usr/local/Ascend/driver/version.info
    cat_file /usr/local/Ascend/firmware/version.info
    # CANN toolkit: the set_env.sh location first, then the default root and
    # non-root installs, then the CANN >= 8.5 layout (/usr/local/Ascend/cann).
    _seen=" "
    _found=""
    for _dir in "${ASCEND_HOME_PATH:-}" "${ASCEND_TOOLKIT_HOME:-}" \
        /usr/local/Ascend/ascend-toolkit/latest "${HOME:-/root}/Ascend/ascend-toolkit/latest" \
        /usr/local/Ascend/cann; do
        _dir=${_dir%/}
        [ -n "$_dir" ] || continue
        case $_seen in *" $_dir "*) continue ;; esac
        _seen="$_seen$_dir "
        real "$_dir"
        _real=$_r
        [ -d "$_real" ] || continue
        for _info in "$_real"/*-linux/ascend_toolkit_install.info; do
            if [ -f "$_info" ]; then cat_file "$_dir/${_info#"$_real/"}"; _found=1; fi
        done
        if [ -f "$_real/version.cfg" ]; then cat_file "$_dir/version.cfg"; _found=1; fi
    done
    if [ -z "$_found" ]; then
        # Says "No such file or directory": CANN is not where it is expected.
        cat_file /usr/local/Ascend/ascend-toolkit/latest/version.cfg
    fi
    cat_file /usr/local/Ascend/nnal/atb/latest/version.info quiet
}

# --------------------------------------------------------------- Python stack
PIP_RE='^(torch|torch[-_]npu|vllm|vllm[-_]ascend|triton|triton[-_]ascend|ray|roll) '

pip_stack() {
    if have pip; then
        _pip="pip"
    elif have python3; then
        _pip="python3 -m pip"
    else
        section "pip list 2>/dev/null | grep -i -E '$PIP_RE'"
        skipped pip
        return 0
    fi
    section "$_pip list 2>/dev/null | grep -i -E '$PIP_RE'"
    if ! have grep; then skipped grep; return 0; fi
    # shellcheck disable=SC2086 # $_pip is split into words on purpose (python3 -m pip)
    _out=$(run $_pip list 2>/dev/null)
    _rc=$?
    emit "$(printf '%s\n' "$_out" | grep -i -E "$PIP_RE")"
    if [ "$_rc" -eq 124 ]; then timed_out; fi
    return 0
}

ENV_RE='^(HCCL|ASCEND|ACL_|RAY|ROLL|NPU|TORCH|PYTORCH|VLLM|MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|LOCAL_RANK|GLOO|TASK_QUEUE_ENABLE|CPU_AFFINITY_CONF|OMP_NUM_THREADS|LD_LIBRARY_PATH|PATH=)'

environment() {
    section "env | grep -E '$ENV_RE'"
    if ! have env; then skipped env; return 0; fi
    if ! have grep; then skipped grep; return 0; fi
    if ! have awk; then skipped awk; return 0; fi # awk masks the secrets
    _out=$(run env 2>&1)
    emit "$(printf '%s\n' "$_out" | grep -E "$ENV_RE")"
    return 0
}

# --------------------------------------------------------------------- logs
# newest PATTERN DIR...: sets NEWEST (the path to read) and NEWEST_SHOW (the
# path to name) to the most recently modified file matching PATTERN in the DIRs.
newest() {
    NEWEST=""
    NEWEST_SHOW=""
    _pat=$1
    shift
    for _dir in "$@"; do
        real "$_dir"
        [ -d "$_r" ] || continue
        for _f in "$_r"/$_pat; do
            [ -f "$_f" ] || continue
            case $_pat:$_f in python-core-driver-*:*"_$DRIVER_PID.log") continue ;; esac
            # -nt: not in POSIX, but in dash, bash, busybox and ksh; elsewhere
            # it fails and the first file found is taken.
            # shellcheck disable=SC3013
            if [ -z "$NEWEST" ] || [ "$_f" -nt "$NEWEST" ]; then
                NEWEST=$_f
                NEWEST_SHOW=$_dir/${_f##*/}
            fi
        done
    done
}

# tail_section SHOWN_PATH READ_PATH
tail_section() {
    section "tail -n 200 $1"
    if ! have tail; then skipped tail; return 0; fi
    if ! have awk; then skipped awk; return 0; fi # awk masks the secrets
    _out=$(run tail -n 200 "$2" 2>&1)
    _rc=$?
    emit "$_out"
    if [ "$_rc" -eq 124 ]; then timed_out; fi
    return 0
}

# The newest CANN process log (plog): $ASCEND_PROCESS_LOG_PATH replaces the
# default $HOME/ascend/log; root's default is /root/ascend/log.
plog() {
    set --
    if [ -n "${ASCEND_PROCESS_LOG_PATH:-}" ]; then set -- "${ASCEND_PROCESS_LOG_PATH%/}/debug/plog"; fi
    if [ -n "${HOME:-}" ] && [ "$HOME" != /root ]; then set -- "$@" "${HOME%/}/ascend/log/debug/plog"; fi
    set -- "$@" /root/ascend/log/debug/plog
    newest 'plog-*.log' "$@"
    if [ -z "$NEWEST" ]; then newest '*.log' "$@"; fi
    if [ -n "$NEWEST" ]; then
        tail_section "$NEWEST_SHOW" "$NEWEST"
    else
        section "tail -n 200 <newest plog>"
        printf '[roll-doctor] no plog found in: %s\n' "$*"
    fi
}

# Ray's logs on this node, from ${RAY_TMPDIR:-${TMPDIR:-/tmp}}/ray/session_latest/logs:
# raylet.out, gcs_server.out (the head only) and the newest driver log. The
# Ray collector names the node's own files (ROLL_DOCTOR_RAY_LOGS: several
# raylets share one directory when they share a machine) and leaves out its
# own driver's log (ROLL_DOCTOR_DRIVER_PID).
ray_logs() {
    _logs=${RAY_LOG_DIR%/}
    _first=1
    for _n in $RAY_LOGS; do
        real "$_logs/$_n"
        # The first (the raylet's) always: its absence says Ray never ran here.
        if [ -n "$_first" ] || [ -f "$_r" ]; then tail_section "$_logs/$_n" "$_r"; fi
        _first=""
    done
    newest 'python-core-driver-*.log' "$_logs"
    if [ -n "$NEWEST" ]; then tail_section "$NEWEST_SHOW" "$NEWEST"; fi
}

# ---------------------------------------------------------------------- main
collect() {
    printf '===== roll-doctor node: %s =====\n' "$(node_name)"
    cmd_section hostname hostname hostname
    addresses

    find_tool npu-smi /usr/local/sbin/npu-smi /usr/local/bin/npu-smi /usr/bin/npu-smi
    NPU_SMI=$TOOL
    NPU_SHOW=$SHOW
    find_tool hccn_tool /usr/local/Ascend/driver/tools/hccn_tool /usr/local/bin/hccn_tool /usr/bin/hccn_tool
    HCCN=$TOOL
    HCCN_SHOW=$SHOW

    if [ -n "$NPU_SMI" ]; then
        cmd_section "$NPU_SHOW info" "$NPU_SMI" "$NPU_SMI" info
    else
        section "npu-smi info"
        skipped npu-smi
    fi
    discover_npus
    npu_health
    hccn_loop "-link -g"
    hccn_loop "-ip -g"
    hccn_loop "-tls -g" switch
    hccn_loop "-net_health -g"

    if have ss; then
        cmd_section "ss -tlnp" ss ss -tlnp
    elif have netstat; then
        cmd_section "netstat -tlnp" netstat netstat -tlnp
    else
        section "ss -tlnp"
        skipped ss
    fi
    section "ulimit -n"
    # shellcheck disable=SC3045 # what users type; dash, bash and busybox have it
    emit "$(ulimit -n 2>&1)"

    versions
    pip_stack
    environment
    if [ "$SKIP_RAY_STATUS" != 1 ]; then
        cmd_section "ray status" ray ray status
    fi
    plog
    ray_logs
}

# Masks secrets in the stream; markers pass untouched. In the `env` section a
# NAME=value line is masked by its name or by the shape of its value; every
# other line loses hf_/sk- tokens, URL passwords, Bearer tokens and
# SOMETHING_TOKEN=value style assignments. (No {n} intervals: old mawk lacks them.)
# shellcheck disable=SC2016 # an awk program
MASK_AWK='
function rep(c, n,    s, i) { s = ""; for (i = 0; i < n; i++) s = s c; return s }
function tokenish(v) {
    return length(v) >= 32 && v ~ /^[A-Za-z0-9+\/_=-]+$/ && v !~ /^\// && v ~ /[0-9]/ && v ~ /[A-Za-z]/
}
function mask_assign(s,    out, st, len, seg, eq) {
    out = ""
    while (match(s, /[A-Za-z0-9_]*(TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)[A-Z0-9_]*=[^ \t"'"'"',;]+/)) {
        st = RSTART; len = RLENGTH
        seg = substr(s, st, len); eq = index(seg, "=")
        out = out substr(s, 1, st - 1) substr(seg, 1, eq) "***"
        s = substr(s, st + len)
    }
    return out s
}
function mask_text(s) {
    gsub(HF, "***", s); gsub(SK, "***", s)
    gsub(/:\/\/[^\/:@ \t]+:[^\/@ \t]+@/, "://***@", s)
    gsub(BEARER, "Bearer ***", s)
    return mask_assign(s)
}
BEGIN {
    an = "[A-Za-z0-9]"; tk = "[A-Za-z0-9_-]"
    HF = "hf_" rep(an, 20) an "*"
    SK = "sk-" rep(tk, 20) tk "*"
    BEARER = "[Bb]earer[ \t]+" rep("[A-Za-z0-9._~+/=-]", 16) "[A-Za-z0-9._~+/=-]*"
    SECRET = "TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH"
    mode = ""
}
/^===== roll-doctor node: .* =====$/ { mode = ""; print; next }
/^===== roll-doctor: .* =====$/ { mode = ($0 ~ /^===== roll-doctor: (env|printenv) /) ? "env" : "text"; print; next }
mode == "env" && /^[A-Za-z_][A-Za-z0-9_]*=/ {
    eq = index($0, "="); name = substr($0, 1, eq - 1); val = substr($0, eq + 1)
    if (toupper(name) ~ SECRET || tokenish(val)) { print name "=***"; next }
    print name "=" mask_text(val); next
}
{ print mask_text($0) }
'

mask() {
    if have awk; then
        awk "$MASK_AWK"
    elif have cat; then
        # No awk: the env and log sections were skipped, nothing to mask.
        cat
    else
        while IFS= read -r _line || [ -n "$_line" ]; do printf '%s\n' "$_line"; done
    fi
}

if [ -n "$OUT" ]; then
    # The one file this script writes: the user asked for it.
    umask 077
    collect </dev/null | mask >"$OUT"
else
    collect </dev/null | mask
fi
exit 0
