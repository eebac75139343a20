#!/usr/bin/env python3
"""Tests of collector/ (standard library only; `cargo xtask test` runs this file).

(a) roll-doctor-collect.sh under dash, against shim commands on PATH that
    print recorded real outputs (tests/shims/, one set per simulated node):
    markers, loop sizing, timeouts, masking, tools missing, read-only.
(b) roll-doctor-ray-collect.py against a REAL Ray cluster on this machine:
    Ray from PyPI (the version ROLL pins) in target/collector-venv, a head and
    two worker raylets bound to 127.0.0.1, each node's workers seeing their
    own shim set; an expected fourth node is missing. Every process the test
    starts is stopped, also on failure, and checked gone.
(c) With ROLL_DOCTOR_BIN (the roll-doctor CLI; `cargo xtask test` passes it),
    the bundles are diagnosed and the findings checked against
    tests/scenarios/*/expected.txt: exactly those ids, each on its node, and
    the fix commands a `fix` line names (ROLL_DOCTOR_ASSERT_FINDINGS=0 only
    prints them).

Prints `collector: N passed, M failed` last; exit status 1 on any failure.
"""

import atexit
import importlib.util
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

HERE = os.path.dirname(os.path.abspath(__file__))
COLLECTOR_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(COLLECTOR_DIR)
SCRIPT = os.path.join(COLLECTOR_DIR, "roll-doctor-collect.sh")
RAY_SCRIPT = os.path.join(COLLECTOR_DIR, "roll-doctor-ray-collect.py")
SHIMS = os.path.join(HERE, "shims")
SCENARIOS = os.path.join(HERE, "scenarios")
A2_ROOT = os.path.join(SHIMS, "a2-8npu", "root")
ARTIFACTS = os.path.join(REPO, "target", "collector-test")

# ROLL's requirements_common.txt pins `ray[default,cgraph]==2.48.0` (vLLM needs
# >= 2.48.0) and `click<8.2` (ray 2.48.0's CLI breaks on click 8.2). cgraph
# only adds CUDA's cupy, useless here.
RAY_VERSION = "2.48.0"
RAY_REQUIREMENTS = ["ray[default]==%s" % RAY_VERSION, "click<8.2"]
VENV = os.path.join(REPO, "target", "collector-venv")

BASE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
DASH = shutil.which("dash") or "/bin/dash"
MARKER_RE = re.compile(r"^===== roll-doctor: (.+) =====$")
NODE_RE = re.compile(r"^===== roll-doctor node: (.+) =====$")
SECRET_KEY = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"  # a fake 40-hex API key

# A node as ROLL runs it: CANN's set_env.sh sourced, HCCL settings, a secret.
NODE_ENV = {
    "ASCEND_HOME_PATH": "/usr/local/Ascend/ascend-toolkit/latest",
    "ASCEND_TOOLKIT_HOME": "/usr/local/Ascend/ascend-toolkit/latest",
    "ASCEND_OPP_PATH": "/usr/local/Ascend/ascend-toolkit/latest/opp",
    "LD_LIBRARY_PATH": "/usr/local/Ascend/driver/lib64/driver:/usr/local/Ascend/ascend-toolkit/latest/lib64",
    "HCCL_CONNECT_TIMEOUT": "1200",
    "HCCL_NPU_SOCKET_PORT_RANGE": "auto",
    "ROLL_WANDB_API_KEY": SECRET_KEY,
}
SCENARIO_NODES = ["ascend-node-1", "ascend-node-2", "ascend-node-3"]


def sections(text):
    """[(marker command or ('node', name), [lines])] in order."""
    out = []
    for line in text.splitlines():
        m, n = MARKER_RE.match(line), NODE_RE.match(line)
        if n:
            out.append((("node", n.group(1)), []))
        elif m:
            out.append((m.group(1), []))
        elif out:
            out[-1][1].append(line)
    return out


def section(text, command):
    hits = [body for cmd, body in sections(text) if cmd == command]
    if len(hits) != 1:
        raise AssertionError("expected one section %r, found %d" % (command, len(hits)))
    return hits[0]


def tree(path):
    """Every file and directory under path with size and mtime (to see writes)."""
    snap = {}
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            p = os.path.join(root, name)
            st = os.lstat(p)
            snap[p] = (st.st_size, st.st_mtime_ns, st.st_mode)
    return snap


def run_collector(shim_set=None, env=None, args=(), path=None, timeout=120):
    """Runs roll-doctor-collect.sh under dash with a clean environment."""
    e = {"HOME": tempfile.gettempdir(), "LANG": "C"}
    e.update(env or {})
    if path is not None:
        e["PATH"] = path
    elif shim_set:
        e["PATH"] = os.path.join(SHIMS, shim_set, "bin") + ":" + BASE_PATH
    else:
        e["PATH"] = BASE_PATH
    p = subprocess.run([DASH, SCRIPT] + list(args), env=e, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def unquoted(sh):
    """Shell text with the insides of quotes blanked (quote marks kept)."""
    out, quote, i = [], None, 0
    while i < len(sh):
        c = sh[i]
        if quote is None:
            if c == "\\":
                out.append(sh[i:i + 2])
                i += 2
                continue
            if c in "'\"":
                quote = c
            out.append(c)
        elif c == quote:
            quote = None
            out.append(c)
        elif quote == '"' and c == "\\":
            i += 1
        i += 1
    return "".join(out)


def load_ray_collect():
    spec = importlib.util.spec_from_file_location("roll_doctor_ray_collect", RAY_SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ensure_shims_executable():
    for root, _, files in os.walk(SHIMS):
        for f in files:
            p = os.path.join(root, f)
            if os.path.basename(root) == "bin" or f == "recorded.sh":
                if not os.access(p, os.X_OK):
                    os.chmod(p, 0o755)


# ======================================================================= (a)
class NodeCollector(unittest.TestCase):
    """roll-doctor-collect.sh on one node, under dash."""

    @classmethod
    def setUpClass(cls):
        if not os.access(DASH, os.X_OK):
            raise unittest.SkipTest("dash is not installed")
        ensure_shims_executable()
        cls.tmp = tempfile.mkdtemp(prefix="rdcol.")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def node_env(self, name, **extra):
        home = os.path.join(self.tmp, "home-" + name)
        os.makedirs(home, exist_ok=True)
        env = dict(NODE_ENV, HOME=home, ROLL_DOCTOR_ROOT=A2_ROOT, RAY_TMPDIR=os.path.join(self.tmp, "ray-" + name))
        env.update(extra)
        return env

    def test_sections_in_order_and_marker_format(self):
        rc, out, err = run_collector("ascend-node-1", self.node_env("n1"))
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0], "===== roll-doctor node: ascend-node-1 =====")
        self.assertEqual(sum(1 for l in lines if l.startswith("===== roll-doctor node:")), 1)
        cmds = [c for c, _ in sections(out)][1:]
        plog_dirs = "tail -n 200 <newest plog>"
        expected = (["hostname", "hostname -I", "npu-smi info"]
                    + ["npu-smi info -t health -i %d" % i for i in range(8)]
                    + ["for i in {0..7}; do hccn_tool -i $i -link -g; done",
                       "for i in {0..7}; do hccn_tool -i $i -ip -g; done",
                       "for i in {0..7}; do hccn_tool -i $i -tls -g | grep switch; done",
                       "for i in {0..7}; do hccn_tool -i $i -net_health -g; done",
                       "ss -tlnp", "ulimit -n",
                       "cat /usr/local/Ascend/driver/version.info",
                       "cat /usr/local/Ascend/firmware/version.info",
                       "cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info"])
        self.assertEqual(cmds[:len(expected)], expected)
        rest = cmds[len(expected):]
        self.assertTrue(rest[0].startswith("pip list 2>/dev/null | grep -i -E '^(torch|torch[-_]npu|vllm|vllm[-_]ascend|"
                                           "triton|triton[-_]ascend|ray|roll) '"), rest[0])
        self.assertTrue(rest[1].startswith("env | grep -E '^(HCCL|ASCEND|"), rest[1])
        self.assertEqual(rest[2:], ["ray status", plog_dirs,
                                    "tail -n 200 %s/ray/session_latest/logs/raylet.out" % os.path.join(self.tmp, "ray-n1")])
        for line in lines:
            if line.startswith("====="):
                self.assertTrue(MARKER_RE.match(line) or NODE_RE.match(line), line)

    def test_outputs_are_the_recordings(self):
        rc, out, _ = run_collector("ascend-node-3", self.node_env("n3"))
        self.assertEqual(rc, 0)
        self.assertEqual(section(out, "hostname"), ["ascend-node-3"])
        self.assertEqual(section(out, "hostname -I"), ["10.0.0.3 172.17.0.1"])
        link = section(out, "for i in {0..7}; do hccn_tool -i $i -link -g; done")
        self.assertEqual(link, ["link status: %s" % ("DOWN" if i == 5 else "UP") for i in range(8)])
        tls = section(out, "for i in {0..7}; do hccn_tool -i $i -tls -g | grep switch; done")
        self.assertEqual(len(tls), 8)
        self.assertTrue(all(("dev_id:%d, tls switch[1](0:disable, 1:enable)" % i) in l for i, l in enumerate(tls)), tls)
        ips = section(out, "for i in {0..7}; do hccn_tool -i $i -ip -g; done")
        self.assertEqual(ips[0::2], ["ipaddr:192.168.100.%d" % (120 + i) for i in range(8)])
        self.assertEqual(set(ips[1::2]), {"netmask:255.255.255.0"})
        self.assertEqual(section(out, "for i in {0..7}; do hccn_tool -i $i -net_health -g; done"),
                         ["net health status: Success"] * 8)
        npu = section(out, "npu-smi info")
        self.assertIn("| npu-smi 25.0.rc1.1               Version: 25.0.rc1.1                                           |", npu)
        self.assertEqual(len(npu), 49)
        health = section(out, "npu-smi info -t health -i 5")
        self.assertEqual(health[0].split(), ["NPU", "ID", ":", "5"])
        driver = section(out, "cat /usr/local/Ascend/driver/version.info")
        with open(os.path.join(A2_ROOT, "usr/local/Ascend/driver/version.info")) as f:
            self.assertEqual(driver, f.read().splitlines())
        pip = [c for c, _ in sections(out) if isinstance(c, str) and c.startswith("pip list")][0]
        self.assertEqual([l.split() for l in section(out, pip)],
                         [["ray", "2.48.0"], ["torch", "2.5.1"], ["torch-npu", "2.5.1"], ["vllm", "0.9.1"],
                          ["vllm-ascend", "0.9.1"]])
        env_cmd = [c for c, _ in sections(out) if isinstance(c, str) and c.startswith("env |")][0]
        shown = dict(l.split("=", 1) for l in section(out, env_cmd))
        self.assertEqual([k for k in shown if k.startswith("ROLL_DOCTOR_")], [])  # the collector's own settings
        self.assertEqual(shown["ASCEND_OPP_PATH"], NODE_ENV["ASCEND_OPP_PATH"])
        rc, out2, _ = run_collector("ascend-node-2", self.node_env("n2"))
        self.assertIn("torch-npu                         2.5.1.post1", section(out2, pip))
        self.assertEqual(section(out2, "for i in {0..7}; do hccn_tool -i $i -link -g; done"), ["link status: UP"] * 8)

    def test_node_name_from_environment(self):
        _, out, _ = run_collector("ascend-node-1", self.node_env("nn", ROLL_DOCTOR_NODE="10.0.0.1"))
        self.assertEqual(out.splitlines()[0], "===== roll-doctor node: 10.0.0.1 =====")
        self.assertEqual(section(out, "hostname"), ["ascend-node-1"])

    def test_a3_sixteen_devices_and_ip_fallback(self):
        """A3: 8 NPU IDs x 2 chips = 16 devices; `hostname -I` unsupported, so `ip`."""
        log = os.path.join(self.tmp, "a3-calls.log")
        _, out, _ = run_collector("ascend-a3", self.node_env("a3", ROLL_DOCTOR_SHIM_LOG=log))
        cmds = [c for c, _ in sections(out)]
        self.assertNotIn("hostname -I", cmds)
        self.assertEqual(section(out, "ip -4 -o addr show")[1].split()[:4], ["2:", "enp189s0f0", "inet", "10.0.0.3/24"])
        link = section(out, "for i in {0..15}; do hccn_tool -i $i -link -g; done")
        self.assertEqual(link, ["link status: UP"] * 16)
        tls = section(out, "for i in {0..15}; do hccn_tool -i $i -tls -g | grep switch; done")
        self.assertEqual([l.split(",")[0] for l in tls], ["dev_id:%d" % i for i in range(16)])
        self.assertEqual(len(section(out, "for i in {0..15}; do hccn_tool -i $i -ip -g; done")), 32)
        self.assertEqual([c for c in cmds if isinstance(c, str) and c.startswith("npu-smi info -t health")],
                         ["npu-smi info -t health -i %d" % i for i in range(8)])
        with open(log) as f:
            calls = f.read().splitlines()
        self.assertEqual([c for c in calls if c.endswith("-link -g")], ["hccn_tool -i %d -link -g" % i for i in range(16)])

    def test_davinci_devices_size_the_loops_without_npu_smi(self):
        root = os.path.join(self.tmp, "root-davinci")
        os.makedirs(os.path.join(root, "dev"), exist_ok=True)
        for name in ["davinci%d" % i for i in range(16)] + ["davinci_manager"]:
            open(os.path.join(root, "dev", name), "w").close()
        _, out, _ = run_collector(None, self.node_env("dv", ROLL_DOCTOR_ROOT=root))
        self.assertEqual(section(out, "for i in {0..15}; do hccn_tool -i $i -link -g; done"),
                         ["[roll-doctor] skipped: hccn_tool not found"])
        self.assertEqual(section(out, "npu-smi info"), ["[roll-doctor] skipped: npu-smi not found"])

    def test_no_tools_every_section_skipped_cleanly(self):
        empty = os.path.join(self.tmp, "empty-bin")
        os.makedirs(empty, exist_ok=True)
        env = self.node_env("none")
        rc, out, err = run_collector(path=empty, env=env)
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "")
        secs = sections(out)
        self.assertEqual(secs[0][0][0], "node")  # the name from /proc/sys/kernel/hostname
        self.assertGreaterEqual(len(secs), 16)
        for cmd, body in secs[1:]:
            if cmd == "ulimit -n":  # a shell builtin: always there
                self.assertRegex(body[0], r"^(\d+|unlimited)$")
                continue
            if cmd == "tail -n 200 <newest plog>":
                self.assertEqual(len(body), 1)
                self.assertTrue(body[0].startswith("[roll-doctor] no plog found in: "), body)
                continue
            self.assertEqual(len(body), 1, (cmd, body))
            self.assertRegex(body[0], r"^\[roll-doctor\] skipped: [\w.-]+ not found$", cmd)
        self.assertEqual(section(out, "npu-smi info"), ["[roll-doctor] skipped: npu-smi not found"])
        self.assertEqual(section(out, "for i in {0..7}; do hccn_tool -i $i -link -g; done"),
                         ["[roll-doctor] skipped: hccn_tool not found"])

    def test_timeouts(self):
        t = time.time()
        rc, out, _ = run_collector("slow", self.node_env("slow", ROLL_DOCTOR_TIMEOUT="1"), timeout=90)
        took = time.time() - t
        self.assertEqual(rc, 0)
        self.assertEqual(section(out, "npu-smi info"), ["[roll-doctor] timed out after 1s"])
        # Card 0 answers, card 1 hangs: the loop stops there.
        self.assertEqual(section(out, "for i in {0..1}; do hccn_tool -i $i -link -g; done"),
                         ["link status: UP", "[roll-doctor] timed out after 1s"])
        self.assertEqual(section(out, "npu-smi info -t health -i 1"), ["[roll-doctor] timed out after 1s"])
        self.assertLess(took, 40)
        time.sleep(0.5)
        self.assertEqual(pids_matching("sleep 31.5"), [], "a timed-out command survived")

    def test_secrets_are_masked(self):
        home = os.path.join(self.tmp, "home-mask")
        plog = os.path.join(home, "ascend", "log", "debug", "plog")
        os.makedirs(plog, exist_ok=True)
        hf = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123"
        sk = "sk-" + "proj0123456789abcdefghijKLMN"
        with open(os.path.join(plog, "plog-100_20250101000000001.log"), "w") as f:
            f.write("[INFO] HCCL(100,python):2025-01-01-00:00:00.000.001 [hccl_comm.cc:120] init, HF_TOKEN=%s\n" % hf)
            f.write("Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345\n")
            f.write("fetching https://roll:hunter2secret@mirror.example/simple\n")
        b64 = "QUtJQTEyMzQ1Njc4OTBhYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5eg=="
        env = self.node_env("mask", HOME=home, ROLL_HF_TOKEN=hf, RAY_REDIS_PASSWORD="hunter2", VLLM_OPENAI_KEY=sk,
                            ASCEND_SOME_ID=b64, ROLL_MIRROR="https://roll:hunter2secret@mirror.example/simple",
                            HCCL_HEX="0123456789abcdef0123456789abcdef")
        _, out, _ = run_collector("ascend-node-1", env)
        for secret in (hf, sk, SECRET_KEY, "hunter2", b64, "0123456789abcdef0123456789abcdef",
                       "abcdefghijklmnopqrstuvwxyz012345"):
            self.assertNotIn(secret, out)
        env_cmd = [c for c, _ in sections(out) if isinstance(c, str) and c.startswith("env |")][0]
        shown = dict(l.split("=", 1) for l in section(out, env_cmd))
        for name in ("ROLL_HF_TOKEN", "RAY_REDIS_PASSWORD", "VLLM_OPENAI_KEY", "ASCEND_SOME_ID", "ROLL_WANDB_API_KEY",
                     "HCCL_HEX"):
            self.assertEqual(shown[name], "***", name)
        self.assertEqual(shown["ROLL_MIRROR"], "https://***@mirror.example/simple")
        self.assertEqual(shown["HCCL_CONNECT_TIMEOUT"], "1200")
        self.assertEqual(shown["ASCEND_HOME_PATH"], "/usr/local/Ascend/ascend-toolkit/latest")
        self.assertEqual(shown["LD_LIBRARY_PATH"], NODE_ENV["LD_LIBRARY_PATH"])
        log = section(out, "tail -n 200 %s/plog-100_20250101000000001.log" % plog)
        self.assertIn("[hccl_comm.cc:120] init, HF_TOKEN=***", log[0])
        self.assertEqual(log[1], "Authorization: Bearer ***")
        self.assertEqual(log[2], "fetching https://***@mirror.example/simple")

    def test_newest_plog_and_ray_logs(self):
        home = os.path.join(self.tmp, "home-logs")
        plog = os.path.join(home, "ascend", "log", "debug", "plog")
        own = os.path.join(self.tmp, "own-plog")
        os.makedirs(os.path.join(own, "debug", "plog"), exist_ok=True)
        os.makedirs(plog, exist_ok=True)
        files = {os.path.join(plog, "plog-7712_20250409091500.log"): 1000,
                 os.path.join(plog, "plog-7713_20250409091501.log"): 3000,
                 os.path.join(own, "debug", "plog", "plog-7714_20250409091502.log"): 2000}
        for p, mtime in files.items():
            with open(p, "w") as f:
                f.write("line of %s\n" % os.path.basename(p))
            os.utime(p, (mtime, mtime))
        rt = os.path.join(self.tmp, "raytmp")
        logs = os.path.join(rt, "ray", "session_latest", "logs")
        os.makedirs(logs, exist_ok=True)
        for name, mtime in (("raylet.out", 100), ("gcs_server.out", 100), ("python-core-driver-01000000ffffffff_1.log", 100),
                            ("python-core-driver-02000000ffffffff_2.log", 200)):
            with open(os.path.join(logs, name), "w") as f:
                f.write("\n".join("%s line %d" % (name, i) for i in range(300)) + "\n")
            os.utime(os.path.join(logs, name), (mtime, mtime))
        env = self.node_env("logs", HOME=home, RAY_TMPDIR=rt, ASCEND_PROCESS_LOG_PATH=own)
        _, out, _ = run_collector("ascend-node-1", env)
        cmds = [c for c, _ in sections(out)]
        self.assertIn("tail -n 200 %s/plog-7713_20250409091501.log" % plog, cmds)
        body = section(out, "tail -n 200 %s/raylet.out" % logs)
        self.assertEqual(len(body), 200)
        self.assertEqual(body[-1], "raylet.out line 299")
        self.assertIn("tail -n 200 %s/gcs_server.out" % logs, cmds)
        self.assertIn("tail -n 200 %s/python-core-driver-02000000ffffffff_2.log" % logs, cmds)
        self.assertNotIn("tail -n 200 %s/python-core-driver-01000000ffffffff_1.log" % logs, cmds)
        # What the Ray collector passes: the node's own directory and raylet
        # log, and its own driver's pid (whose log is left out).
        env = self.node_env("logs2", HOME=home, RAY_TMPDIR="/nonexistent", ROLL_DOCTOR_RAY_LOG_DIR=logs,
                            ROLL_DOCTOR_RAY_LOGS="raylet.1.out gcs_server.out", ROLL_DOCTOR_DRIVER_PID="2")
        _, out, _ = run_collector("ascend-node-1", env)
        cmds = [c for c in sections(out) if isinstance(c[0], str) and "/logs/" in c[0]]
        self.assertEqual([c for c, _ in cmds], ["tail -n 200 %s/raylet.1.out" % logs, "tail -n 200 %s/gcs_server.out" % logs,
                                                "tail -n 200 %s/python-core-driver-01000000ffffffff_1.log" % logs])
        self.assertIn("No such file or directory", cmds[0][1][0])

    def test_read_only_by_construction(self):
        """No mutating command or flag in the script; output goes nowhere but -o FILE."""
        with open(SCRIPT) as f:
            code = []
            for line in f:
                s = line.strip()
                if s.startswith("#"):
                    continue
                code.append(re.sub(r"\s#\s.*$", "", s))
        text = "\n".join(code)
        deny = [r"\bnpu-smi\s+(set|clear|upgrade|reset)\b", r"\s-set\b", r"\breset\b", r"\bhccn_tool\b[^\n]*\s-s\s",
                r"\brm\s", r"\bmv\s", r"\bcp\s", r"\bdd\s", r"\bchmod\b", r"\bchown\b", r"\bmkdir\b", r"\btouch\b",
                r"\bln\s", r"\bkill(all)?\b", r"\bpkill\b", r"\breboot\b", r"\bshutdown\b", r"\bsysctl\b",
                r"\bmodprobe\b", r"\brmmod\b", r"\bray\s+(start|stop|down|up|kill)\b", r"\bpip3?\s+(un)?install\b",
                r"\bsed\s+-i", r"\btee\b", r"\bip\s+(link|addr|address|route)\s+(set|add|del|flush)\b",
                r"\bsystemctl\b", r"\bdocker\b", r"\bsudo\b", r">>"]
        for pat in deny:
            self.assertIsNone(re.search(pat, text), "mutating pattern %r in the collector" % pat)
        # Every redirection goes to /dev/null, a file descriptor, or the -o FILE
        # (quoted text, such as the usage and the awk program, left out).
        for target in re.findall(r"(?<![<&0-9])[12]?>\s*([^\s;|&)]+)", unquoted(text.replace('"$OUT"', "OUTFILE"))):
            self.assertIn(target, ("/dev/null", "&1", "&2", "OUTFILE"), "redirection to %s" % target)
        # hccn_tool only with -g (get) operations; npu-smi only `info`.
        loops = re.findall(r'hccn_loop "([^"]+)"', text)
        self.assertEqual(sorted(loops), sorted(["-link -g", "-ip -g", "-tls -g", "-net_health -g"]))
        runs = [w for w in re.findall(r'"\$NPU_SMI"\s+(\S+)', text) if w not in ("];", '"$NPU_SMI"')]
        self.assertTrue(runs)
        self.assertEqual(set(runs), {"info"})

    def test_read_only_when_run(self):
        """Every call the shims see is a query, and nothing on disk changes."""
        log = os.path.join(self.tmp, "calls.log")
        home = os.path.join(self.tmp, "home-ro")
        os.makedirs(os.path.join(home, "ascend", "log", "debug", "plog"), exist_ok=True)
        with open(os.path.join(home, "ascend", "log", "debug", "plog", "plog-1_1.log"), "w") as f:
            f.write("x\n")
        rt = os.path.join(self.tmp, "ray-ro")
        os.makedirs(os.path.join(rt, "ray", "session_latest", "logs"), exist_ok=True)
        out_dir = os.path.join(self.tmp, "out-ro")
        os.makedirs(out_dir, exist_ok=True)
        watched = [home, rt, A2_ROOT, SHIMS, out_dir]
        before = {p: tree(p) for p in watched}
        env = self.node_env("ro", HOME=home, RAY_TMPDIR=rt, ROLL_DOCTOR_SHIM_LOG=log)
        out_file = os.path.join(out_dir, "node.txt")
        rc, out, err = run_collector("ascend-node-3", env, args=["-o", out_file])
        self.assertEqual((rc, out), (0, ""), err)
        after = {p: tree(p) for p in watched}
        for p in watched:
            if p == out_dir:
                self.assertEqual(set(after[p]) - set(before[p]), {out_file})
                self.assertEqual(after[p][out_file][2] & 0o777, 0o600)
            else:
                self.assertEqual(before[p], after[p], "something under %s changed" % p)
        with open(log) as f:
            calls = f.read().splitlines()
        self.assertTrue(calls)
        for c in calls:
            tool = c.split()[0]
            if tool == "npu-smi":
                self.assertRegex(c, r"^npu-smi info( -l| -t health -i \d+)?$")
            elif tool == "hccn_tool":
                self.assertRegex(c, r"^hccn_tool -i \d+ -(link|ip|tls|net_health) -g$")
            else:
                self.assertRegex(c, r"^(hostname( -I)?|pip list|ss -tlnp)$")
        # -o FILE holds what stdout would have.
        _, stdout_text, _ = run_collector("ascend-node-3", env)
        with open(out_file) as f:
            self.assertEqual(f.read(), stdout_text)

    def test_help_and_bad_usage(self):
        rc, out, _ = run_collector(None, self.node_env("h"), args=["-h"])
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("usage: roll-doctor-collect.sh"))
        self.assertIn("ssh $h sh -s < roll-doctor-collect.sh", out)
        rc, out, err = run_collector(None, self.node_env("h"), args=["--reset"])
        self.assertEqual(rc, 2)
        self.assertIn("unknown argument: --reset", err)

    def test_piped_into_sh_s(self):
        """`ssh host sh -s < roll-doctor-collect.sh`: commands must not eat the script."""
        with open(SCRIPT, "rb") as f:
            script = f.read()
        env = dict(NODE_ENV, HOME=os.path.join(self.tmp, "home-n1"), ROLL_DOCTOR_ROOT=A2_ROOT, LANG="C",
                   PATH=os.path.join(SHIMS, "ascend-node-2", "bin") + ":" + BASE_PATH)
        p = subprocess.run([DASH, "-s"], input=script, env=env, stdout=subprocess.PIPE, timeout=120)
        out = p.stdout.decode()
        self.assertEqual(p.returncode, 0)
        self.assertEqual(out.splitlines()[0], "===== roll-doctor node: ascend-node-2 =====")
        self.assertIn("tail -n 200 <newest plog>", [c for c, _ in sections(out)])

    def test_ssh_loop_bundle(self):
        """Per-node outputs concatenated are a bundle: each starts with its node marker."""
        parts = []
        for name in SCENARIO_NODES:
            _, out, _ = run_collector(name, self.node_env("ssh-" + name))
            parts.append(out)
        bundle = "".join(parts)
        os.makedirs(ARTIFACTS, exist_ok=True)
        path = os.path.join(ARTIFACTS, "ssh-loop-three-nodes.bundle.txt")
        with open(path, "w") as f:
            f.write(bundle)
        self.assertEqual([c[1] for c, _ in sections(bundle) if isinstance(c, tuple)], SCENARIO_NODES)
        check_findings(self, "ssh-loop-three-nodes", path, bundle)


# ===================================================== ray-collect helpers
class RayCollectHelpers(unittest.TestCase):
    """The pure parts of roll-doctor-ray-collect.py (no Ray needed)."""

    @classmethod
    def setUpClass(cls):
        cls.m = load_ray_collect()

    def test_node_labels(self):
        def node(host, addr, name=None, port=1, nid="a"):
            return {"NodeManagerHostname": host, "NodeManagerAddress": addr, "NodeName": name or addr,
                    "NodeManagerPort": port, "NodeID": nid * 8}
        L = self.m.node_labels
        self.assertEqual(L([node("n1", "10.0.0.1"), node("n2", "10.0.0.2")]), ["n1", "n2"])
        self.assertEqual(L([node("vm", "10.0.0.1"), node("vm", "10.0.0.2")]), ["10.0.0.1", "10.0.0.2"])
        self.assertEqual(L([node("vm", "127.0.0.1", port=5), node("vm", "127.0.0.1", port=6)]),
                         ["127.0.0.1:5", "127.0.0.1:6"])
        self.assertEqual(L([node("vm", "127.0.0.1", "ascend-node-1"), node("vm", "127.0.0.1", "ascend-node-2")]),
                         ["ascend-node-1", "ascend-node-2"])
        self.assertEqual(L([node("h", "1.1.1.1", "x", nid="a"), node("g", "1.1.1.2", "x", nid="b")]),
                         ["x#aaaaaaaa", "x#bbbbbbbb"])

    def test_expected_section(self):
        E = self.m.expected_section
        known = [{"ascend-node-1", "10.0.0.1"}, {"ascend-node-2", "10.0.0.2"}, {"ascend-node-3", "10.0.0.3"}]
        head = "===== roll-doctor: expected nodes ====="
        self.assertEqual(E(4, [], 3, known), [head, "expected: 4", "alive: 3", "missing: 1 node(s) (expected 4, alive 3)"])
        self.assertEqual(E(None, ["ascend-node-1", "10.0.0.2", "ascend-node-3.cluster.local", "ascend-node-4"], 3, known),
                         [head, "expected: 4", "alive: 3", "missing: ascend-node-4"])
        self.assertEqual(E(3, [], 3, known), [head, "expected: 3", "alive: 3"])
        self.assertEqual(E(6, ["ascend-node-4"], 3, known),
                         [head, "expected: 6", "alive: 3", "missing: ascend-node-4",
                          "missing: 2 node(s) (expected 6, alive 3)"])

    def test_identities_from_the_node_block(self):
        block = ("===== roll-doctor node: 10.0.0.7 =====\n===== roll-doctor: hostname =====\nascend-node-7\n"
                 "===== roll-doctor: hostname -I =====\n10.0.0.7 172.17.0.1\n")
        ids = self.m.identities({"NodeManagerHostname": "ascend-node-7.example", "NodeManagerAddress": "10.0.0.7",
                                 "NodeName": "10.0.0.7"}, "10.0.0.7", block)
        self.assertTrue({"ascend-node-7", "ascend-node-7.example", "10.0.0.7", "172.17.0.1"} <= ids)

    def test_config_masking(self):
        cfg = ("exp_name: qwen\nmax_new_tokens: 512\ntokenizer_name_or_path: /models/qwen\n"
               "track_with: wandb\ntracker_kwargs:\n  api_key: 0123456789abcdef\n  project: roll\n"
               "system_envs:\n  HF_TOKEN: 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123'\n  WANDB_API_KEY: ${oc.env:WANDB_API_KEY}\n"
               "flow: {access_key: AKIA123, region: cn}\nmirror: https://u:p4ss@host/x\n# api_key: left-in-comment\n")
        got = self.m.mask_text(cfg).splitlines()
        self.assertEqual(got[1], "max_new_tokens: 512")
        self.assertEqual(got[2], "tokenizer_name_or_path: /models/qwen")
        self.assertEqual(got[5], "  api_key: ***")
        self.assertEqual(got[8], "  HF_TOKEN: '***'")
        self.assertEqual(got[9], "  WANDB_API_KEY: ${oc.env:WANDB_API_KEY}")
        self.assertEqual(got[10], "flow: {access_key: ***, region: cn}")
        self.assertEqual(got[11], "mirror: https://***@host/x")
        self.assertEqual(got[12], "# api_key: ***")
        self.assertNotIn("0123456789abcdef", "\n".join(got))

    def test_node_block(self):
        self.assertEqual(self.m.node_block("n9", "", "timed out after 5s"),
                         "===== roll-doctor node: n9 =====\n[roll-doctor] collection failed: timed out after 5s")
        self.assertEqual(self.m.node_block("n9", "===== roll-doctor node: x =====\nabc\n", None),
                         "===== roll-doctor node: x =====\nabc")


# ======================================================================= (b)
def venv_python():
    return os.path.join(VENV, "bin", "python")


def ensure_ray_venv():
    """target/collector-venv with ray[default]==RAY_VERSION; reused when right."""
    py = venv_python()
    probe = "import ray, click; print(ray.__version__, click.__version__)"
    if os.access(py, os.X_OK):
        p = subprocess.run([py, "-c", probe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO)
        words = p.stdout.decode().split()
        if p.returncode == 0 and len(words) == 2 and words[0] == RAY_VERSION and tuple(
                int(x) for x in words[1].split(".")[:2]) < (8, 2):
            return py, False
        shutil.rmtree(VENV)
    t = time.time()
    if subprocess.run([sys.executable, "-m", "venv", VENV]).returncode != 0:
        raise RuntimeError("`%s -m venv` failed (on Debian: apt-get install python3-venv)" % sys.executable)
    subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check", "-q"] + RAY_REQUIREMENTS, check=True)
    print("collector: created %s with %s in %.0fs" % (VENV, " ".join(RAY_REQUIREMENTS), time.time() - t),
          file=sys.stderr)
    return py, True


def pids_matching(needle):
    """Processes whose command line contains needle (from /proc: no procps needed)."""
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit() and int(d) != os.getpid() and needle in _cmdline(int(d)):
            found.append(int(d))
    return found


def pids_under(tmp):
    """Processes whose command line names the test's own temp directory."""
    return pids_matching(tmp)


class RayCluster(unittest.TestCase):
    """roll-doctor-ray-collect.py against a real 3-node Ray cluster."""

    cluster = None
    tmp = None

    @classmethod
    def setUpClass(cls):
        ensure_shims_executable()
        cls.py, _ = ensure_ray_venv()
        # Short: Ray's unix socket paths must stay under 108 bytes.
        cls.tmp = tempfile.mkdtemp(prefix="rdr.", dir="/tmp")
        atexit.register(cls.stop_cluster)
        cls.env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_", "ROLL_DOCTOR_"))}
        cls.env.update(RAY_TMPDIR=cls.tmp, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", RAY_USAGE_STATS_ENABLED="0",
                       PYTHONDONTWRITEBYTECODE="1")
        nodes = []
        for name in SCENARIO_NODES:
            home = os.path.join(cls.tmp, "home-" + name)
            os.makedirs(home)
            env = dict(NODE_ENV, HOME=home, ROLL_DOCTOR_ROOT=A2_ROOT,
                       PATH=os.path.join(SHIMS, name, "bin") + ":" + os.path.join(VENV, "bin") + ":" + BASE_PATH)
            nodes.append({"name": name, "env": env, "resources": {"NPU": 8}})
        spec = os.path.join(cls.tmp, "cluster.json")
        with open(spec, "w") as f:
            json.dump({"nodes": nodes}, f)
        t = time.time()
        with open(os.path.join(cls.tmp, "cluster.err"), "w") as err:
            cls.cluster = subprocess.Popen([cls.py, os.path.join(HERE, "ray_cluster.py"), spec], cwd=cls.tmp,
                                           env=cls.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        try:
            line = cls.cluster.stdout.readline().decode()
            if not line:
                with open(os.path.join(cls.tmp, "cluster.err")) as f:
                    raise RuntimeError("the Ray cluster did not start:\n" + f.read()[-3000:])
            cls.address = json.loads(line)["address"]
            print("collector: Ray %s cluster of %d nodes up at %s in %.1fs"
                  % (RAY_VERSION, len(nodes), cls.address, time.time() - t), file=sys.stderr)
            t = time.time()
            cls.bundle_path = os.path.join(cls.tmp, "bundle.txt")
            cls.run1 = cls.collect(["--expect", "4", "-o", cls.bundle_path])
            with open(cls.bundle_path) as f:
                cls.bundle = f.read()
            os.makedirs(ARTIFACTS, exist_ok=True)
            shutil.copy(cls.bundle_path, os.path.join(ARTIFACTS, "three-nodes-one-missing.bundle.txt"))
            print("collector: collected in %.1fs" % (time.time() - t), file=sys.stderr)
        except BaseException:
            # unittest does not call tearDownClass when setUpClass fails.
            cls.stop_cluster()
            shutil.rmtree(cls.tmp, ignore_errors=True)
            raise

    @classmethod
    def collect(cls, args):
        p = subprocess.run([cls.py, RAY_SCRIPT, "--address", cls.address, "--timeout", "90"] + args, cwd=cls.tmp,
                           env=cls.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=300)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    @classmethod
    def stop_helper(cls):
        """Asks the cluster helper to shut its cluster down (Ray's own shutdown)."""
        c, cls.cluster = cls.cluster, None
        if c is None:
            return
        try:
            c.stdin.write(b"stop\n")
            c.stdin.close()
            c.wait(timeout=90)
        except Exception:
            c.kill()
            c.wait()
        finally:
            c.stdout.close()

    @classmethod
    def kill_leftovers(cls):
        """Kills, by pid, every process whose command line names the test's
        temp directory (only this test's cluster does); returns the survivors."""
        left = pids_under(cls.tmp) if cls.tmp else []
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in left:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.time() + 10
            while left and time.time() < deadline:
                time.sleep(0.3)
                left = pids_under(cls.tmp)
            if not left:
                break
        return left

    @classmethod
    def stop_cluster(cls):
        cls.stop_helper()
        return cls.kill_leftovers()

    @classmethod
    def tearDownClass(cls):
        ray_left, still = [], []
        try:
            cls.stop_helper()
            time.sleep(1)
            ray_left = [p for p in pids_under(cls.tmp) if re.search(r"raylet|gcs_server", _cmdline(p))]
        finally:
            still = cls.kill_leftovers()
            shutil.rmtree(cls.tmp, ignore_errors=True)
        if ray_left or still:
            raise AssertionError("processes of the test's Ray cluster outlived its shutdown: %s"
                                 % (still or ray_left))

    def test_bundle_head_ray_status_and_expected_nodes(self):
        rc, out, err = self.run1
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, "")
        lines = self.bundle.splitlines()
        self.assertEqual(lines[0], "===== roll-doctor bundle v1 =====")
        secs = sections(self.bundle)
        self.assertEqual(secs[0][0], "ray status --address %s" % self.address)
        status = "\n".join(secs[0][1])
        self.assertIn("Active:", status)
        self.assertEqual(len(re.findall(r"^ 1 node_[0-9a-f]+$", status, re.M)), 3, status)
        self.assertRegex(status, r"0\.0/24\.0 NPU")
        self.assertEqual(secs[1], ("expected nodes", ["expected: 4", "alive: 3", "missing: 1 node(s) (expected 4, alive 3)"]))
        self.assertEqual([c[1] for c, _ in secs if isinstance(c, tuple)], SCENARIO_NODES)

    def test_each_node_block_has_its_own_shims(self):
        blocks = self.node_blocks(self.bundle)
        self.assertEqual(list(blocks), SCENARIO_NODES)
        pip = "pip list 2>/dev/null | grep -i -E '^(torch|torch[-_]npu|vllm|vllm[-_]ascend|triton|triton[-_]ascend|ray|roll) '"
        link = "for i in {0..7}; do hccn_tool -i $i -link -g; done"
        tls = "for i in {0..7}; do hccn_tool -i $i -tls -g | grep switch; done"
        for name, text in blocks.items():
            self.assertEqual(section(text, "hostname"), [name])
            self.assertNotIn("collection failed", text)
            cmds = [c for c, _ in sections(text)]
            self.assertNotIn("ray status", cmds)  # once, from the head
            npu = dict(l.split() for l in section(text, pip))["torch-npu"]
            self.assertEqual(npu, "2.5.1.post1" if name == "ascend-node-2" else "2.5.1", name)
            self.assertEqual(section(text, link),
                             ["link status: %s" % ("DOWN" if name == "ascend-node-3" and i == 5 else "UP") for i in range(8)])
            switch = {re.search(r"tls switch\[(\d)\]", l).group(1) for l in section(text, tls)}
            self.assertEqual(switch, {"1"} if name == "ascend-node-3" else {"0"})
            self.assertEqual(section(text, "cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/"
                                           "ascend_toolkit_install.info")[1], "version=8.2.RC1")
            # The node's own Ray logs, found from inside the task: its raylet's
            # (the three raylets share this machine's log directory), the GCS
            # server's on the head, and not the collection's own driver log.
            logs = sorted(c.rsplit("/", 1)[1] for c in cmds if isinstance(c, str) and c.startswith(
                "tail -n 200 %s/ray/session_" % self.tmp))
            self.assertEqual(logs, {"ascend-node-1": ["gcs_server.out", "raylet.out"], "ascend-node-2": ["raylet.1.out"],
                                    "ascend-node-3": ["raylet.2.out"]}[name])
            env_cmd = [c for c in cmds if isinstance(c, str) and c.startswith("env |")][0]
            shown = dict(l.split("=", 1) for l in section(text, env_cmd))
            self.assertEqual(shown["ROLL_WANDB_API_KEY"], "***")
            self.assertEqual(shown["HCCL_CONNECT_TIMEOUT"], "1200")
            # The raylet's environment, not the task's (Ray sets ASCEND_RT_VISIBLE_DEVICES=
            # for a task without NPUs), without the collector's own settings.
            self.assertNotIn("ASCEND_RT_VISIBLE_DEVICES", shown)
            self.assertNotIn("RAY_JOB_ID", shown)
            self.assertEqual([k for k in shown if k.startswith("ROLL_DOCTOR_")], [])
            self.assertTrue(shown["PATH"].startswith(os.path.join(SHIMS, name, "bin") + ":"))
        self.assertNotIn(SECRET_KEY, self.bundle)

    def test_hosts_list_and_config(self):
        cfg = os.path.join(self.tmp, "roll_config.yaml")
        with open(cfg, "w") as f:
            f.write("exp_name: qwen3-8b-rlvr\nnum_gpus_per_node: 8\ntrack_with: wandb\ntracker_kwargs:\n"
                    "  api_key: %s\n  project: roll\n" % SECRET_KEY)
        rc, out, err = self.collect(["--hosts", "ascend-node-1,ascend-node-2,ascend-node-3,ascend-node-4",
                                     "--config", cfg])
        self.assertEqual(rc, 0, err)
        secs = sections(out)
        self.assertEqual(secs[1], ("cat %s" % cfg, ["exp_name: qwen3-8b-rlvr", "num_gpus_per_node: 8", "track_with: wandb",
                                                    "tracker_kwargs:", "  api_key: ***", "  project: roll"]))
        self.assertEqual(secs[2], ("expected nodes", ["expected: 4", "alive: 3", "missing: ascend-node-4"]))
        self.assertNotIn(SECRET_KEY, out)
        self.assertEqual([c[1] for c, _ in secs if isinstance(c, tuple)], SCENARIO_NODES)

    def test_a_node_that_does_not_answer_gets_a_failed_block(self):
        hang = os.path.join(self.tmp, "hang.sh")
        with open(hang, "w") as f:
            f.write('echo "===== roll-doctor node: $ROLL_DOCTOR_NODE ====="\necho started\nsleep 31.5\necho never\n')
        t = time.time()
        p = subprocess.run([self.py, RAY_SCRIPT, "--address", self.address, "--timeout", "3", "--collector", hang],
                           cwd=self.tmp, env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertLess(time.time() - t, 30)
        blocks = self.node_blocks(p.stdout.decode())
        self.assertEqual(list(blocks), SCENARIO_NODES)
        for name, text in blocks.items():
            self.assertEqual(text.splitlines(), ["===== roll-doctor node: %s =====" % name, "started",
                                                 "[roll-doctor] collection failed: timed out after 3s"])
        time.sleep(0.5)
        self.assertEqual(pids_matching("sleep 31.5"), [], "the hung collector survived")

    def test_findings(self):
        check_findings(self, "three-nodes-one-missing", self.bundle_path, self.bundle)

    @staticmethod
    def node_blocks(bundle):
        blocks, name = {}, None
        for line in bundle.splitlines():
            m = NODE_RE.match(line)
            if m:
                name = m.group(1)
                blocks[name] = []
            if name:
                blocks[name].append(line)
        return {k: "\n".join(v) for k, v in blocks.items()}


def _cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


# ======================================================================= (c)
def check_findings(test, scenario, path, bundle):
    """Diagnoses the bundle with $ROLL_DOCTOR_BIN and asserts the scenario's
    expected findings (unless ROLL_DOCTOR_ASSERT_FINDINGS=0)."""
    exe = os.environ.get("ROLL_DOCTOR_BIN")
    if not exe:
        return
    if not os.access(exe, os.X_OK):
        test.fail("ROLL_DOCTOR_BIN=%s is not executable" % exe)
    p = subprocess.run([exe, "diagnose", "--format", "json", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    test.assertEqual(p.returncode, 0, p.stderr.decode())
    report = json.loads(p.stdout)
    got = [(f["id"], sorted(f.get("nodes") or [])) for f in report["findings"]
           if f.get("severity") in ("error", "warn")]
    expected = []
    fixes = []  # (finding id, a command its fixes must contain)
    with open(os.path.join(SCENARIOS, scenario, "expected.txt")) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words and words[0] == "fix":
                fixes.append((words[1], " ".join(words[2:])))
            elif words:
                expected.append((words[0], sorted(words[1:])))
    # The collector reports the real `ulimit -n` of the machine it ran on.
    limits = [int(l) for c, body in sections(bundle) if c == "ulimit -n" for l in body if l.isdigit()]
    allowed_extra = {"ulimit-too-low"} if any(n < 65536 for n in limits) else set()
    summary = "%s: %s" % (scenario, ", ".join("%s%s" % (i, "@" + ",".join(n) if n else "") for i, n in got))
    if os.environ.get("ROLL_DOCTOR_ASSERT_FINDINGS") == "0":
        print("collector: findings (not asserted): " + summary, file=sys.stderr)
        return
    for want_id, want_nodes in expected:
        match = [n for i, n in got if i == want_id]
        test.assertTrue(match, "%s: no %s finding; got %s" % (scenario, want_id, summary))
        if want_nodes:
            test.assertIn(want_nodes, match, "%s: %s names %s, not %s" % (scenario, want_id, match, want_nodes))
    extra = {i for i, _ in got} - {i for i, _ in expected} - allowed_extra
    test.assertEqual(extra, set(), "%s: findings beyond expected.txt: %s" % (scenario, summary))
    for fid, command in fixes:
        commands = [c for f in report["findings"] if f["id"] == fid for x in f.get("fixes", []) for c in x.get("commands", [])]
        test.assertIn(command, commands, "%s: %s's fixes lack %r: %s" % (scenario, fid, command, commands))


# ====================================================================== main
def main():
    t = time.time()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: (RayCluster.stop_cluster(), sys.exit(130)))
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for case in (NodeCollector, RayCollectHelpers, RayCluster):
        suite.addTests(loader.loadTestsFromTestCase(case))
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stderr).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - len(result.failures) - len(result.errors) - len(result.skipped)
    print("collector: %d passed, %d failed (%.0fs)" % (passed, failed, time.time() - t))
    return 1 if failed or not result.wasSuccessful() else 0


if __name__ == "__main__":
    sys.exit(main())
