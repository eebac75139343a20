//! Generated inputs of every kind and every hostile shape, at any size.
//!
//! One source for the scaling test (`tests/scaling.rs`) and the benchmark
//! (`cargo xtask bench`, which includes this file by path): std only, and
//! deterministic (a xorshift generator, no clock), so a shape of a given
//! size is the same bytes everywhere.
//!
//! Each [`Shape`] writes about `n` units (lines, flags, pairs, records: what
//! makes that input grow) to a `String`; [`Shape::of_bytes`] picks `n` for a
//! target size.

#![allow(dead_code)] // each user needs some of these

use std::fmt::Write as _;

/// An input shape: an input kind at scale, or an attack from issue 13.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The benchmark's mixed log: Ray, vLLM, ROLL and HCCL lines with a
    /// rare real failure (about one line in 5,000). `n` = lines.
    Mixed,
    /// `npu-smi info`: one table, `n` NPUs.
    NpuSmi,
    /// `hccn_tool` output without a loop: `n` `link status` lines, no command.
    HccnNoLoop,
    /// `hccn_tool` queries of a loop: `n` records under a `for` command.
    HccnLoop,
    /// `ss -tlnp`: `n` listening sockets.
    Ss,
    /// `ip route get`: `n` route lines.
    IpRoute,
    /// `env`: `n` variables, one a line.
    Env,
    /// One `env`-style line with `n` `K=V` pairs.
    EnvOneLine,
    /// `pip list`: `n` packages.
    PipList,
    /// `ray status`: `n` resource lines.
    RayStatus,
    /// `docker run` on one line with `n` flags.
    DockerFlags,
    /// `docker run` continued over `n` lines (one flag a line).
    DockerLines,
    /// `n` pairs of a `docker run` and an `npu-smi info`.
    DockerNpuPairs,
    /// A ROLL config whose `system_envs` is a chain of `n` keys, each an
    /// interpolation of the one before (`${system_envs.K1}`).
    YamlChain,
    /// `ulimit -n`: `n` prompts each with its answer.
    Ulimit,
    /// CANN `version.info` files: `n` of them, each under its `cat`.
    AscendVersion,
    /// `hostname -I` with `n` addresses.
    NodeInfo,
    /// The collector's `expected nodes` section with `n` missing nodes.
    ExpectedNodes,
    /// Text no detector recognises: `n` lines.
    Unrecognised,
    /// `n` empty lines.
    EmptyLines,
    /// `n` tiny lines (`ok`).
    TinyLines,
    /// `n` shell prompts with no output.
    Prompts,
    /// One log line of `n` bytes that matches a signature.
    LongLine,
    /// A log where every line is failure-like and matches signatures: `n` lines.
    ErrorFlood,
}

/// Every shape, in table order.
pub const ALL: &[Shape] = &[
    Shape::Mixed,
    Shape::NpuSmi,
    Shape::HccnNoLoop,
    Shape::HccnLoop,
    Shape::Ss,
    Shape::IpRoute,
    Shape::Env,
    Shape::EnvOneLine,
    Shape::PipList,
    Shape::RayStatus,
    Shape::DockerFlags,
    Shape::DockerLines,
    Shape::DockerNpuPairs,
    Shape::YamlChain,
    Shape::Ulimit,
    Shape::AscendVersion,
    Shape::NodeInfo,
    Shape::ExpectedNodes,
    Shape::Unrecognised,
    Shape::EmptyLines,
    Shape::TinyLines,
    Shape::Prompts,
    Shape::LongLine,
    Shape::ErrorFlood,
];

/// xorshift64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The benchmark's healthy lines (also `tests/healthy_lines.rs`: which signatures may match them).
pub const HEALTHY: &[&str] = &[
    "(WorkerDict pid=12345) INFO 06-09 06:57:48 worker_base.py:581] Loading weights took 12.34 seconds",
    "[2026-08-19 10:00:00] [initialize.py (80)] [INFO] [DRIVER 0 / 1][PID 1234] Current ray cluster resources: {'CPU': 192.0, 'NPU': 16.0}",
    "[INFO] HCCL(60570,python):2026-04-08-18:07:20.444.436 [hccl_comm.cc:120] [60570][Init] hccl init success, rank[3] rankSize[16]",
    "(NPURayWorkerWrapper pid=45464) INFO 06-09 06:57:48 metrics.py:455] Avg prompt throughput: 1234.5 tokens/s, Avg generation throughput: 567.8 tokens/s, Running: 64 reqs",
    "  File \"/workspace/ROLL/roll/pipeline/rlvr/rlvr_pipeline.py\", line 412, in run",
    "[2026-08-19 10:00:01] [rlvr_pipeline.py (530)] [INFO] [DRIVER 0 / 1][PID 1234] step 17 reward/mean: 0.4321 actor/pg_loss: -0.0123 timing/gen: 45.6",
    "Warning: CAUTION: The operator 'aten::isin.Tensor_Tensor_out' is not currently supported on the NPU backend and will fall back to run on the CPU.",
    "2026-08-19 10:00:02,123\tINFO worker.py:1821 -- Connected to Ray cluster. View the dashboard at 127.0.0.1:8265",
    "Processed prompts:  45%|████▌     | 29/64 [00:12<00:14,  2.41it/s, est. speed input: 1523.12 toks/s]",
    "[WARNING] [2026-08-19 10:00:03] checkpoint saved to ./output/checkpoints/step_17 in 3.2s",
];

const FAILURES: &[&str] = &[
    "EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.",
    "[2025-05-01 10:00:00,000 E 4321 4321] gcs_server.cc:300: Failed accept4: Too many open files",
    "RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB (NPU 3; 60.96 GiB total capacity; 50.12 GiB already allocated)",
    "[ERROR] HCCL(1292363,python):2025-04-08-18:07:20.444.436 [socket_manager.cc:200] [1][Wait] wait socket establish timeout, role[1] rank[12] timeout[120]",
];

/// The benchmark's mixed log of about `bytes` bytes (`cargo xtask bench`
/// has always generated exactly these bytes).
pub fn mixed_log(bytes: usize, out: &mut String) {
    let (mut written, mut rng, mut n) = (0usize, Rng(0x2545F4914F6CDD1D), 0u64);
    while written < bytes {
        let state = rng.next();
        n += 1;
        let line = if state % 5000 == 0 {
            FAILURES[(n as usize) % FAILURES.len()]
        } else {
            HEALTHY[(state as usize >> 8) % HEALTHY.len()]
        };
        let _ = writeln!(out, "{line} #{n}");
        written += line.len() + 12;
    }
}

impl Shape {
    /// A short name (the benchmark's row label, the test's message).
    pub fn name(self) -> &'static str {
        match self {
            Shape::Mixed => "mixed log",
            Shape::NpuSmi => "npu-smi info",
            Shape::HccnNoLoop => "hccn_tool without a loop",
            Shape::HccnLoop => "hccn_tool loop",
            Shape::Ss => "ss -tlnp",
            Shape::IpRoute => "ip route get",
            Shape::Env => "env",
            Shape::EnvOneLine => "env K=V pairs on one line",
            Shape::PipList => "pip list",
            Shape::RayStatus => "ray status",
            Shape::DockerFlags => "docker run flags on one line",
            Shape::DockerLines => "docker run over many lines",
            Shape::DockerNpuPairs => "docker run x npu-smi pairs",
            Shape::YamlChain => "YAML key chain",
            Shape::Ulimit => "ulimit -n prompts",
            Shape::AscendVersion => "version.info files",
            Shape::NodeInfo => "hostname -I",
            Shape::ExpectedNodes => "expected nodes",
            Shape::Unrecognised => "unrecognised text",
            Shape::EmptyLines => "empty lines",
            Shape::TinyLines => "tiny lines",
            Shape::Prompts => "shell prompts",
            Shape::LongLine => "one long matching line",
            Shape::ErrorFlood => "failure-like lines",
        }
    }

    /// Roughly how many bytes one unit takes (to size an input).
    pub fn unit_bytes(self) -> usize {
        match self {
            Shape::Mixed => 120,
            Shape::NpuSmi => 200,
            Shape::HccnNoLoop => 16,
            Shape::HccnLoop => 16,
            Shape::Ss => 92,
            Shape::IpRoute => 70,
            Shape::Env => 40,
            Shape::EnvOneLine => 13,
            Shape::PipList => 40,
            Shape::RayStatus => 30,
            Shape::DockerFlags => 12,
            Shape::DockerLines => 24,
            Shape::DockerNpuPairs => 285,
            Shape::YamlChain => 40,
            Shape::Ulimit => 18,
            Shape::AscendVersion => 160,
            Shape::NodeInfo => 12,
            Shape::ExpectedNodes => 22,
            Shape::Unrecognised => 40,
            Shape::EmptyLines => 1,
            Shape::TinyLines => 3,
            Shape::Prompts => 36,
            Shape::LongLine => 1,
            Shape::ErrorFlood => 60,
        }
    }

    /// The input with `n` units.
    pub fn generate(self, n: usize) -> String {
        let mut s = String::with_capacity(n.saturating_mul(self.unit_bytes()) + 256);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        match self {
            Shape::Mixed => mixed_log(n * 120, &mut s),
            Shape::NpuSmi => {
                s.push_str("$ npu-smi info\n");
                s.push_str("+------------------------------------------------------------------------------------------------+\n");
                s.push_str("| npu-smi 23.0.5                   Version: 23.0.5                                               |\n");
                s.push_str("| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n");
                s.push_str("| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |\n");
                for i in 0..n {
                    let health = if rng.next().is_multiple_of(97) { "Warning" } else { "OK" };
                    let _ = writeln!(s, "| {i:<5} 910B1               | {health:<13} | 73.1        37                0    / 0             |");
                    let _ = writeln!(s, "| 0                         | 0000:61:00.0  | 0           0    / 0          3401 / 65536         |");
                }
                s.push_str("+===========================+===============+====================================================+\n");
            }
            Shape::HccnNoLoop => {
                for i in 0..n {
                    s.push_str(if i % 7 == 3 { "link status: DOWN\n" } else { "link status: UP\n" });
                }
            }
            Shape::HccnLoop => {
                s.push_str("$ for i in {0..7}; do hccn_tool -i $i -link -g; hccn_tool -i $i -ip -g; done\n");
                for i in 0..n {
                    match i % 3 {
                        0 => s.push_str("link status: UP\n"),
                        1 => {
                            let _ = writeln!(s, "ipaddr:10.0.{}.{}", (i / 250) % 250, i % 250);
                        }
                        _ => s.push_str("netmask:255.255.255.0\n"),
                    }
                }
            }
            Shape::Ss => {
                s.push_str("$ ss -tlnp\n");
                s.push_str("State  Recv-Q Send-Q Local Address:Port Peer Address:PortProcess\n");
                for i in 0..n {
                    let port = 1024 + (i % 60000);
                    let _ = writeln!(
                        s,
                        "LISTEN 0      4096   10.{}.{}.{}:{port}      0.0.0.0:*    users:((\"python3\",pid={},fd=3))",
                        i / 65536 % 256,
                        i / 256 % 256,
                        i % 256,
                        1000 + i
                    );
                }
            }
            Shape::IpRoute => {
                s.push_str("$ ip route get 10.20.0.29\n");
                for i in 0..n {
                    let _ = writeln!(
                        s,
                        "10.20.{}.{} via 10.20.0.1 dev enp194s0f{} src 10.20.0.2 uid 0",
                        i / 250 % 250,
                        i % 250,
                        i % 4
                    );
                }
            }
            Shape::Env => {
                s.push_str("$ env\n");
                for i in 0..n {
                    let _ = writeln!(s, "VARIABLE_{i}=/usr/local/Ascend/value/{}", rng.next() % 1000);
                }
            }
            Shape::EnvOneLine => {
                for i in 0..n {
                    let _ = write!(s, "K{i}=v{} ", i % 10);
                }
                s.push('\n');
            }
            Shape::PipList => {
                s.push_str("$ pip list\nPackage                Version\n---------------------- ----------\n");
                for i in 0..n {
                    let _ = writeln!(s, "package-number-{i:<8} {}.{}.{}", i % 3, i % 17, i % 5);
                }
            }
            Shape::RayStatus => {
                s.push_str("$ ray status\n======== Autoscaler status: 2026-08-19 10:00:00 ========\nNode status\n");
                s.push_str("---------------------------------------------------------------\nActive:\n");
                for i in 0..n / 2 {
                    let _ = writeln!(s, " 1 node_{i:08x}");
                }
                s.push_str("Pending:\n (no pending nodes)\nResources\n----------------\nUsage:\n");
                for i in 0..n - n / 2 {
                    let _ = writeln!(s, " 0.0/{}.0 R{i}", 8 + i % 8);
                }
                s.push_str(" 0.0/16.0 NPU\n");
            }
            Shape::DockerFlags => {
                // Meant for NPUs from its first flag (the image comes after
                // more words than the parser reads).
                s.push_str("docker run -it -e ASCEND_RT_VISIBLE_DEVICES=0");
                for i in 0..n {
                    match i % 3 {
                        0 => {
                            let _ = write!(s, " -e V{i}=1");
                        }
                        1 => {
                            let _ = write!(s, " -v /h{i}:/c");
                        }
                        _ => {
                            let _ = write!(s, " --device /dev/d{}", i % 100);
                        }
                    }
                }
                s.push_str(" roll:main-a2 bash\n");
            }
            Shape::DockerLines => {
                s.push_str("$ docker run -it \\\n");
                for i in 0..n {
                    let _ = writeln!(s, "    -e VAR_{i}=value \\");
                }
                s.push_str("    roll:main-a2 bash\n");
            }
            Shape::DockerNpuPairs => {
                for i in 0..n {
                    let _ = writeln!(s, "$ docker run -it --device /dev/davinci{} --net=host roll:main-a2 bash", i % 8);
                    s.push_str("$ npu-smi info\n");
                    s.push_str("| NPU   Name      | Health  | Power(W)  Temp(C)  |\n");
                    s.push_str("| Chip            | Bus-Id  | AICore(%) Memory   |\n");
                    let _ = writeln!(s, "| {}     910B1     | OK      | 73.1      37       |", i % 8);
                    s.push_str("| 0               | 0000:61 | 0   3401 / 65536   |\n");
                }
            }
            Shape::YamlChain => {
                s.push_str("exp_name: chain\nrollout_batch_size: 64\nactor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,8))\n");
                s.push_str("system_envs:\n  K0: \"1\"\n");
                for i in 1..n.max(1) {
                    let _ = writeln!(s, "  K{i}: ${{system_envs.K{}}}", i - 1);
                }
            }
            Shape::Ulimit => {
                for i in 0..n {
                    let _ = writeln!(s, "$ ulimit -n\n{}", if i % 2 == 0 { 1024 } else { 65536 });
                }
            }
            Shape::AscendVersion => {
                for i in 0..n {
                    let _ = writeln!(
                        s,
                        "$ cat /usr/local/Ascend/driver/version.info\nVersion=24.1.rc{}\nascendhal_version=7.35.23\npackage_version=24.1.rc{}",
                        i % 3,
                        i % 3
                    );
                }
            }
            Shape::NodeInfo => {
                s.push_str("$ hostname -I\n");
                for i in 0..n {
                    let _ = write!(s, "10.{}.{}.{} ", i / 65536 % 256, i / 256 % 256, i % 256);
                }
                s.push('\n');
            }
            Shape::ExpectedNodes => {
                s.push_str("===== roll-doctor: expected nodes =====\nexpected: 4\nalive: 3\n");
                for i in 0..n {
                    let _ = writeln!(s, "missing: ascend-node-{i}");
                }
            }
            Shape::Unrecognised => {
                for i in 0..n {
                    let _ = writeln!(s, "lorem ipsum dolor {} sit amet consectetur", rng.next() % 100_000 + i as u64);
                }
            }
            Shape::EmptyLines => {
                for _ in 0..n {
                    s.push('\n');
                }
            }
            Shape::TinyLines => {
                for _ in 0..n {
                    s.push_str("ok\n");
                }
            }
            Shape::Prompts => {
                for i in 0..n {
                    let _ = writeln!(s, "[root@node1 ~]# ls -la /tmp/x{:06}", i % 1_000_000);
                }
            }
            Shape::LongLine => {
                s.push_str("EI0006: Getting socket times out. ");
                while s.len() < n {
                    s.push_str("payload ");
                }
                s.push('\n');
            }
            Shape::ErrorFlood => {
                for i in 0..n {
                    let _ = writeln!(s, "[ERROR] HCCL({i},python) EI0006: Getting socket times out. rank[{}]", i % 16);
                }
            }
        }
        s
    }

    /// The number of units for an input of about `bytes` bytes.
    pub fn units_for(self, bytes: usize) -> usize {
        (bytes / self.unit_bytes()).max(1)
    }

    /// An input of about `bytes` bytes.
    pub fn of_bytes(self, bytes: usize) -> String {
        self.generate(self.units_for(bytes))
    }
}
