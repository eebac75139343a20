#!/usr/bin/env python3
"""Collect the whole ROLL cluster's state for roll-doctor, through Ray.

Run it on the Ray head node with the Python of the ROLL environment (the one
that has `ray`):

    python3 roll-doctor-ray-collect.py --expect 4 --config my_roll.yaml -o bundle.txt

It connects to the running cluster (`ray.init(address=...)`, default `auto`),
runs `roll-doctor-collect.sh` on every alive Ray node (one task pinned to each
node; the script's text travels inside the task and runs with `sh -s`, so the
nodes need no shared storage), runs `ray status` here, and writes one bundle:

    ===== roll-doctor bundle v1 =====
    ===== roll-doctor: ray status =====
    ...
    ===== roll-doctor: cat <config> =====       (with --config)
    ===== roll-doctor: expected nodes =====     (with --expect or --hosts)
    expected: 4
    alive: 3
    missing: ...
    ===== roll-doctor node: <node> =====        (one block per alive node)
    ...

Everything it runs is read-only (see roll-doctor-collect.sh). Standard library
plus `ray`; nothing to install on the nodes.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

BUNDLE_MARKER = "===== roll-doctor bundle v1 ====="
NODE_MARKER_RE = re.compile(r"^=+ roll-doctor node: (.+?) =+\s*$")

# ------------------------------------------------------------------ secrets
SECRET_WORDS = {"token", "key", "secret", "password", "passwd", "credential", "credentials", "auth", "apikey"}
_TOKEN_SHAPES = [
    (re.compile(r"hf_[A-Za-z0-9]{20,}"), "***"),
    (re.compile(r"sk-[A-Za-z0-9_-]{20,}"), "***"),
    (re.compile(r"(://)[^/:@\s]+:[^/@\s]+@"), r"\1***@"),
    (re.compile(r"([Bb]earer\s+)[A-Za-z0-9._~+/=-]{16,}"), r"\1***"),
]
_ASSIGN_RE = re.compile(r"""([A-Za-z0-9_.\-]+)(\s*[:=]\s*)(\$\{[^}]*\}|"[^"]*"|'[^']*'|[^\s,{}\[\]#]+)""")


def is_secret_name(name):
    """A key is secret when one of its words (split at _ . -) is a secret word:
    `api_key`, `hf_token`, `WANDB_API_KEY` are; `max_new_tokens`, `tokenizer` are not."""
    words = [w for w in re.split(r"[_.\-]+", name.lower()) if w]
    return any(w in SECRET_WORDS for w in words)


def mask_text(text):
    """Masks secret-looking values in a config or any text: values of keys
    named like secrets, and token-shaped strings anywhere."""
    out = []
    for line in text.splitlines():
        for rx, rep in _TOKEN_SHAPES:
            line = rx.sub(rep, line)

        def assign(m):
            key, sep, value = m.group(1), m.group(2), m.group(3)
            plain = value.strip("'\"")
            if not is_secret_name(key) or plain in ("", "null", "~", "***") or plain.startswith("${"):
                return m.group(0)
            return key + sep + "***"

        out.append(_ASSIGN_RE.sub(assign, line))
    return "\n".join(out)


# -------------------------------------------------------------------- nodes
def node_labels(nodes):
    """Names for the alive nodes, as Ray reports them: the node name when one
    was given (`ray start --node-name`; Ray defaults it to the IP), else the
    host name when no other node shares it, else the IP, else IP:port."""
    hosts = [n.get("NodeManagerHostname") or "" for n in nodes]
    addrs = [n.get("NodeManagerAddress") or "" for n in nodes]
    labels = []
    for n, host, addr in zip(nodes, hosts, addrs):
        name = n.get("NodeName") or ""
        if name and name != addr:
            labels.append(name)
        elif host and hosts.count(host) == 1:
            labels.append(host)
        elif addr and addrs.count(addr) == 1:
            labels.append(addr)
        else:
            labels.append("%s:%s" % (addr or "?", n.get("NodeManagerPort", "?")))
    # Still equal (two nodes given the same name): tell them apart by id.
    dup = {label for label in labels if labels.count(label) > 1}
    return [("%s#%s" % (label, (n.get("NodeID") or "")[:8])) if label in dup else label
            for n, label in zip(nodes, labels)]


def identities(node, label, block):
    """Every name a user could know this node by, lower case."""
    names = {label, node.get("NodeName") or "", node.get("NodeManagerHostname") or "",
             node.get("NodeManagerAddress") or ""}
    host = node.get("NodeManagerHostname") or ""
    names.add(host.split(".")[0])
    lines = block.splitlines()
    for i, line in enumerate(lines):
        m = NODE_MARKER_RE.match(line)
        if m:
            names.add(m.group(1).strip())
        # The collector's `hostname` and `hostname -I` sections.
        if line.strip() in ("===== roll-doctor: hostname =====", "===== roll-doctor: hostname -I =====") and i + 1 < len(lines):
            names.update(lines[i + 1].split())
    return {n.strip().lower() for n in names if n and n.strip()}


def expected_section(expect, hosts, alive, known):
    """The `expected nodes` section. `known` is one identity set per alive node."""
    expected = expect if expect is not None else len(hosts)
    lines = ["===== roll-doctor: expected nodes =====", "expected: %d" % expected, "alive: %d" % alive]
    named = 0
    for h in hosts:
        wanted = {h.lower(), h.lower().split(".")[0]} if not re.match(r"^\d+\.\d+\.\d+\.\d+$", h) else {h.lower()}
        if not any(wanted & ids for ids in known):
            lines.append("missing: %s" % h)
            named += 1
    uncounted = expected - alive - named
    if uncounted > 0:
        lines.append("missing: %d node(s) (expected %d, alive %d)" % (uncounted, expected, alive))
    return lines


# ------------------------------------------------------------- per-node task
def collect_on_node(script, label, timeout, is_head, driver_pid):
    """Runs in a Ray worker on the node: the collector from its text, `sh -s`."""
    import os as _os
    import subprocess as _sp
    import shutil as _sh
    import signal as _sig
    import sys as _sys

    # The node's environment is the raylet's (what ROLL's Ray workers start
    # from), not this task's: Ray gives a task that asks for no NPU
    # ASCEND_RT_VISIBLE_DEVICES= and OMP_NUM_THREADS=1.
    env = None
    try:
        with open("/proc/%s/environ" % _os.environ["RAY_RAYLET_PID"], "rb") as f:
            pairs = [kv.split(b"=", 1) for kv in f.read().split(b"\0") if b"=" in kv]
        env = {k.decode("utf-8", "surrogateescape"): v.decode("utf-8", "surrogateescape") for k, v in pairs}
    except (KeyError, OSError, ValueError):
        pass
    if not env:
        env = dict(_os.environ)
        for name in ("ASCEND_RT_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"):
            if env.get(name) == "":
                del env[name]
    # A ROLL_DOCTOR_NODE already set in the node's environment wins.
    env.setdefault("ROLL_DOCTOR_NODE", label)
    env["ROLL_DOCTOR_SKIP_RAY_STATUS"] = "1"  # the bundle has the head's
    env["ROLL_DOCTOR_DRIVER_PID"] = str(driver_pid)  # not this collection's own driver log
    # This node's own Ray logs: the worker's arguments name its session and
    # its raylet's socket (`raylet`, or `raylet.1` for a second raylet on one
    # machine, whose log is raylet.1.out).
    args = dict(a.split("=", 1) for a in _sys.argv if a.startswith("--") and "=" in a)
    if "ROLL_DOCTOR_RAY_LOG_DIR" not in env:
        session = None
        try:
            import ray as _ray

            session = _ray._private.worker.global_worker.node.get_session_dir_path()
        except Exception:
            if args.get("--temp-dir") and args.get("--session-name"):
                session = _os.path.join(args["--temp-dir"], args["--session-name"])
        if session:
            env["ROLL_DOCTOR_RAY_LOG_DIR"] = _os.path.join(session, "logs")
    raylet = _os.path.basename(args.get("--raylet-name", "")) or "raylet"
    env.setdefault("ROLL_DOCTOR_RAY_LOGS", raylet + ".out" + (" gcs_server.out" if is_head else ""))
    shell = _sh.which("sh") or "/bin/sh"
    proc = _sp.Popen([shell, "-s"], stdin=_sp.PIPE, stdout=_sp.PIPE, stderr=_sp.STDOUT, env=env,
                     start_new_session=True)
    try:
        out, _ = proc.communicate(script.encode(), timeout=timeout)
        return out.decode("utf-8", "replace"), None
    except _sp.TimeoutExpired:
        try:
            _os.killpg(proc.pid, _sig.SIGKILL)  # the shell and whatever it was waiting for
        except OSError:
            pass
        out, _ = proc.communicate()
        return out.decode("utf-8", "replace"), "timed out after %gs" % timeout


def is_head(node):
    """Ray gives the head node the resource node:__internal_head__."""
    return "node:__internal_head__" in (node.get("Resources") or {})


def node_block(label, output, failure):
    text = output.rstrip("\n")
    if not text.lstrip().startswith("===== roll-doctor node:"):
        text = "===== roll-doctor node: %s =====\n%s" % (label, text) if text else "===== roll-doctor node: %s =====" % label
    if failure:
        text += "\n[roll-doctor] collection failed: %s" % failure
    return text


# ---------------------------------------------------------------- ray status
NO_STATUS_RETRIES = 10  # times `ray status` is asked again while Ray has no status yet
NO_STATUS_WAIT = 2.0  # seconds between those tries
def ray_status(address, timeout=60):
    """`ray status` on this (head) node: (the command as run, its output)."""
    here = os.path.join(os.path.dirname(sys.executable), "ray")
    exe = [here] if os.access(here, os.X_OK) else ([shutil.which("ray")] if shutil.which("ray") else None)
    if exe is None:
        exe = [sys.executable, "-m", "ray.scripts.scripts"]
    args = ["status"]
    shown = "ray status"
    if address and address != "auto":
        args += ["--address", address]
        shown += " --address " + address
    try:
        # Ray publishes the cluster status a few seconds after it starts; until
        # then `ray status` says so ("No cluster status. It may take a few
        # seconds ..."). Ask again for a while rather than bundle that.
        for attempt in range(NO_STATUS_RETRIES + 1):
            p = subprocess.run(exe + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout)
            out = p.stdout.decode("utf-8", "replace").rstrip("\n")
            if "No cluster status" not in out or attempt == NO_STATUS_RETRIES:
                return shown, out
            time.sleep(NO_STATUS_WAIT)
    except subprocess.TimeoutExpired:
        return shown, "[roll-doctor] timed out after %ds" % timeout
    except OSError as e:
        return shown, "[roll-doctor] skipped: ray not found (%s)" % e


# ---------------------------------------------------------------------- main
def parse_args(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(
        description="Run roll-doctor-collect.sh on every alive Ray node and write one bundle for roll-doctor.")
    ap.add_argument("--address", default="auto", help="Ray cluster address (default: auto, the cluster this node is in)")
    ap.add_argument("--expect", type=int, metavar="N", help="how many nodes the job needs; missing ones are named in the bundle")
    ap.add_argument("--hosts", default="", metavar="H1,H2,...",
                    help="the nodes that should be there (host names or IPs); each one Ray does not list is named")
    ap.add_argument("--config", metavar="PATH", help="the ROLL YAML config to include (secret-looking values masked)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write the bundle to FILE (default: standard output)")
    ap.add_argument("--collector", default=os.path.join(here, "roll-doctor-collect.sh"), metavar="PATH",
                    help="the node collector script (default: roll-doctor-collect.sh next to this script)")
    ap.add_argument("--timeout", type=float, default=240, metavar="SECONDS",
                    help="per-node limit for the whole collection (default 240)")
    args = ap.parse_args(argv)
    if args.expect is not None and args.expect < 1:
        ap.error("--expect must be at least 1")
    args.hosts = [h.strip() for h in args.hosts.split(",") if h.strip()]
    return args


def collect(args):
    with open(args.collector, encoding="utf-8") as f:
        script = f.read()
    try:
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
    except ImportError as e:
        sys.exit("roll-doctor-ray-collect: cannot import ray with %s (%s); run this with the Python of the ROLL "
                 "environment, or collect with the ssh loop in collector/README.md" % (sys.executable, e))
    import logging

    try:
        ray.init(address=args.address, logging_level=logging.ERROR, log_to_driver=False)
    except Exception as e:  # no cluster here, wrong address, ...
        sys.exit("roll-doctor-ray-collect: cannot connect to the Ray cluster at %s: %s; run this on the head node "
                 "(or give --address), or collect with the ssh loop in collector/README.md"
                 % (args.address, "%s %s" % (type(e).__name__, e)))
    try:
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        # The head first, then by name.
        labels = node_labels(nodes)
        order = sorted(range(len(nodes)), key=lambda i: (not is_head(nodes[i]), labels[i]))
        nodes = [nodes[i] for i in order]
        labels = [labels[i] for i in order]

        task = ray.remote(collect_on_node)
        refs = []
        for n, label in zip(nodes, labels):
            refs.append(task.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=n["NodeID"], soft=False),
                num_cpus=0, max_retries=0, name="roll-doctor-collect:%s" % label,
            ).remote(script, label, args.timeout, is_head(n), os.getpid()))

        status_cmd, status_out = ray_status(args.address)

        # The task enforces the timeout itself; this covers a node that cannot
        # even start a worker.
        deadline = time.time() + args.timeout + 30
        pending = list(refs)
        while pending and time.time() < deadline:
            _, pending = ray.wait(pending, num_returns=len(pending), timeout=max(0.1, deadline - time.time()))
        blocks = []
        for ref, label in zip(refs, labels):
            if ref in pending:
                ray.cancel(ref, force=True)
                blocks.append(node_block(label, "", "no answer within %ss (the node's Ray worker did not run)"
                                         % int(args.timeout + 30)))
                continue
            try:
                output, failure = ray.get(ref)
            except Exception as e:  # the node died, the task could not run, ...
                first = (str(e).strip().splitlines() or [type(e).__name__])[0]
                output, failure = "", "%s: %s" % (type(e).__name__, first)
            blocks.append(node_block(label, output, failure))
    finally:
        ray.shutdown()

    parts = [BUNDLE_MARKER, "===== roll-doctor: %s =====" % status_cmd, status_out]
    if args.config:
        try:
            with open(args.config, encoding="utf-8", errors="replace") as f:
                cfg = mask_text(f.read())
        except OSError as e:
            cfg = "cat: %s: %s" % (args.config, e.strerror)
        parts += ["===== roll-doctor: cat %s =====" % args.config, cfg.rstrip("\n")]
    if args.expect is not None or args.hosts:
        known = [identities(n, label, block) for n, label, block in zip(nodes, labels, blocks)]
        parts += expected_section(args.expect, args.hosts, len(nodes), known)
    parts += blocks
    return "\n".join(p for p in parts if p != "") + "\n"


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    bundle = collect(args)
    if args.output:
        fd = os.open(args.output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(bundle)
        print("roll-doctor-ray-collect: wrote %s" % args.output, file=sys.stderr)
    else:
        sys.stdout.write(bundle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
