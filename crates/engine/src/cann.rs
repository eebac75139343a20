//! The CANN error-code layer: every CANN error code in a paste is explained,
//! even when no rule knows the failure.
//!
//! CANN prints a six-character code with its errors: a level letter (`E`
//! error, `W` warning), a module character (`I` HCCL, `J` HCCP, `E`
//! runtime, `H` ACL, `Z` aclnn/operators, `L` driver, digits for the graph
//! engine and compilers, …) and four digits (9000–9999 are internal
//! errors). Releases print it in several shapes, all recognised here:
//!
//! ```text
//! EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out.
//! [PID: 749] 2026-01-05-10:00:00.000.000 Get_Socket_Timeout(EI0006): …
//! EZ9999[PID: 154893] 2026-08-05-20:04:30.407.624 (EZ9999):  The error from device…
//! EH9999: Inner Error!
//! call aclnnCast failed, detail:EZ1001: …
//! ```
//!
//! Beside those, AscendCL and the runtime return six-digit numbers (the
//! `aclError` values of `acl_base.h` and `rt_error_codes.h`, and aclnn's
//! status codes), which torch_npu, Paddle, MindSpore and CANN's own logs
//! print after a failed call. A bare number is no code, so one counts only
//! in the phrases that print it and only in the ranges those headers use
//! (1000xx, 1480xx, 2000xx, 3000xx, 5000xx for ACL; 107xxx, 207xxx, 507xxx
//! for the runtime; 161xxx, 361xxx, 561xxx for aclnn):
//!
//! ```text
//! NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
//! ACL error, the error code is : 500002
//! wait for compute device to finish failed, runtime result = 507018.
//! aclrtSetDevice(deviceId) failed: 507033
//! launch failed for Cast, errno:561000.
//! rtDeviceSynchronizeWithTimeout:ErrCode=507015, desc=[aicore exception]
//! ACL ERROR: api=aclrtMallocHost, code=107002, caller=MakeBuffer,aclrt_device.cc:106.
//! … DumpTaskExceptionInfo] Task fail infos task_id: 2, …, retcode: 507011 ( model execute failed)
//! rtKernelLaunchWithHandleV2 failed: 507035
//! aclnnFloorGetWorkspaceSize failed. ERROR: 561103
//! aclrtSynchronizeStream failed: 507018
//!   error_code=507018 (device-level; …)
//! [ERROR]  acl set device 0 failed, errorCode = 507033
//! [Init][Version]init soc version failed, ret = 507008
//! Create stream failed, ret:207000
//! [graph_operation.cc:73] gmmNode call SetAclNNWorkspaceExecutor fail, error:161002
//! ```
//!
//! torch_npu's `NPU warning, error code is 107020` is a warning, not a code
//! of a failure, and is left out.
//!
//! `rules/cann/codes.yaml` holds what the codes mean: the component of
//! every module character and the meaning and first checks of the codes
//! users meet most, in both languages (our own words, from CANN's error code
//! reference). The collect phase turns every code on a scanned line into a
//! `log.cann_code` fact; after the rules ran, codes on lines that no finding
//! rests on become one `cann-error-code` finding (specific rules outrank it
//! and absorb their lines), and codes the table does not know are shown in
//! the unexplained panel with their component.

use crate::facts::{Fact, FactDef, FactValue, LineRef, NodeId, Origin, ValueType};
use crate::text::Text;
use serde::Deserialize;
use std::sync::OnceLock;

/// The fact every code on a scanned line becomes.
pub const FACTS: &[FactDef] = &[FactDef::new(
    "log.cann_code",
    ValueType::Str,
    Some("code"),
    "a CANN error code printed on a scanned log line (`EI0006: …`, `Get_Socket_Timeout(EI0006)`, `EZ9999[PID: …]`); subject = the code, value = the code",
)];

/// The shapes a CANN code is printed in (ASCII semantics, one line), for the
/// signature set: finds the lines that carry a code, and captures the code
/// (one group per shape; the set ignores the groups). A code may follow a
/// literal `\n`: the error text of a log embedded in a JSON string (an HTTP
/// 500 body from an inference server).
pub const SIGNATURE: &str = r"(?:\b|\\n)([EW][0-9A-Z][0-9]{4})(?::\s|:$|\[PID: \d+\]|:? (?:Inner Error|Internal error))|\b[A-Z][A-Za-z_/]*\(([EW][0-9A-Z][0-9]{4})\)|\(([EW][0-9A-Z][0-9]{4})\):|^\s*([EW][0-9A-Z][0-9]{4})\s{2,}\S|(?:detail:|module_name=)([EW][0-9A-Z][0-9]{4})\b|(?:[Ee]rror [Cc]ode(?: is)?(?:\*\*)?\s?:?\s?|errorCode = |\bret = |\bret: ?|\bret=|\bresult = |\bCANN(?:GRAPH)? failure |ErrCode=|errno[:\[]|\) failed ?: |\bacl[A-Za-z]+, code=|\bretcode: ?|\b(?:rt|acl[a-z]*)[A-Z][A-Za-z0-9]+ failed(?:\. ERROR)?: ?|\berror_code=|\bfail, error: ?)((?:10[07]|148|[23]00|207|50[07]|[135]61)[0-9]{3})\b";

/// Whether `code` is one this layer reads: a letter code (`EI0006`) or a
/// six-digit return code in one of the ACL, runtime or aclnn ranges.
pub fn is_code(code: &str) -> bool {
    let b = code.as_bytes();
    let letter = b.len() == 6
        && matches!(b[0], b'E' | b'W')
        && (b[1].is_ascii_uppercase() || b[1].is_ascii_digit())
        && b[2..].iter().all(u8::is_ascii_digit);
    letter || numeric_range(code).is_some()
}

/// The first three digits of the return codes this layer reads: the
/// ranges [`SIGNATURE`] spells out (a test keeps the two the same). They
/// live in `example_codes`, a std-only leaf that build.rs also includes.
const RANGES: &[&str] = crate::example_codes::RETURN_CODE_RANGES;

/// The range key of a six-digit return code (`507033` → `507`).
fn numeric_range(code: &str) -> Option<&str> {
    (code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit())).then(|| &code[..3]).filter(|r| RANGES.contains(r))
}

/// [`SIGNATURE`], compiled once to read the codes out of a line.
fn extractor() -> &'static regex::bytes::Regex {
    static RE: OnceLock<regex::bytes::Regex> = OnceLock::new();
    RE.get_or_init(|| crate::pattern::compile(SIGNATURE).expect("the code pattern compiles"))
}

/// The codes printed on a line, in order, each once.
pub fn codes_in(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in extractor().captures_iter(line.as_bytes()) {
        if let Some(m) = c.get(6) {
            // `NPU warning, error code is 107020`: torch_npu's warning.
            let before = &line.as_bytes()[m.start().saturating_sub(32)..m.start()];
            if before.windows(8).any(|w| w.eq_ignore_ascii_case(b"warning,")) {
                continue;
            }
        }
        if let Some(m) = (1..=6).find_map(|i| c.get(i)) {
            let code = String::from_utf8_lossy(m.as_bytes()).into_owned();
            if !out.contains(&code) {
                out.push(code);
            }
        }
    }
    out
}

/// torch_npu's own error code on a line (`ERR00100 PTA call acl api failed`,
/// `ERR02200 DIST call hccl api failed`): `ERR`, five digits, and the upper-case
/// name of torch_npu's part that raised it. Not a CANN code: the words after
/// it say what kind of failure torch_npu saw, and for a failed AscendCL or
/// HCCL call the cause is the return code and CANN's report printed with it.
pub fn torch_npu_code(line: &str) -> Option<(&str, TorchNpuKind)> {
    let b = line.as_bytes();
    let mut from = 0;
    while let Some(i) = line[from..].find("ERR").map(|i| i + from) {
        from = i + 3;
        let code_end = i + 8;
        let word_before = i > 0 && b[i - 1].is_ascii_alphanumeric();
        if word_before || b.len() <= code_end + 1 || !b[i + 3..code_end].iter().all(u8::is_ascii_digit) {
            continue;
        }
        let rest = &line[code_end..];
        let Some(after) = rest.strip_prefix(' ') else { continue };
        let part = after.split(' ').next().unwrap_or("");
        if part.len() < 2 || !part.bytes().all(|c| c.is_ascii_uppercase()) {
            continue;
        }
        let words = after[part.len()..].trim_start().to_ascii_lowercase();
        let kind = if words.starts_with("call acl api failed") {
            TorchNpuKind::Acl
        } else if words.starts_with("call hccl api failed") {
            TorchNpuKind::Hccl
        } else {
            TorchNpuKind::Own
        };
        return Some((&line[i..code_end], kind));
    }
    None
}

/// What a torch_npu code says failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TorchNpuKind {
    /// An AscendCL call returned an error (`… call acl api failed`).
    Acl,
    /// An HCCL call returned an error (`… call hccl api failed`).
    Hccl,
    /// One of torch_npu's own checks, or an exception it did not classify.
    Own,
}

/// A first check for a code: what to look at, and the command, if any.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Check {
    /// English.
    pub en: String,
    /// Chinese.
    pub zh: String,
    /// A command to run, verbatim.
    #[serde(default)]
    pub run: Option<String>,
}

/// A module character's component.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Prefix {
    /// `EI`, `E1`, …
    pub prefix: String,
    /// The component.
    pub component: Text,
    /// First checks for any code of the component.
    pub checks: Text,
    /// Where it is documented (in the YAML only: the build leaves it out).
    #[serde(default)]
    pub source: String,
}

/// A code the table explains.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Code {
    /// `EI0006`.
    pub code: String,
    /// Short title.
    pub title: Text,
    /// What it means, in our words.
    pub meaning: Text,
    /// First checks, in order.
    #[serde(default)]
    pub checks: Vec<Check>,
    /// Where it is documented (in the YAML only: the build leaves it out).
    #[serde(default)]
    pub source: String,
    /// Public pastes it was seen in (in the YAML only, as `source`).
    #[serde(default)]
    pub seen_in: Vec<String>,
}

/// `rules/cann/codes.yaml`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct CodeTable {
    /// Components by module character.
    pub prefixes: Vec<Prefix>,
    /// Known codes.
    pub codes: Vec<Code>,
}

impl CodeTable {
    /// Parses the table (`Err` names the problem).
    pub fn parse(src: &str) -> Result<CodeTable, String> {
        let tree = crate::yaml::parse(src)
            .map_err(|e| format!("line {}: {}", e.line, e.message))?
            .ok_or_else(|| "empty file".to_string())?;
        serde_path_to_error::deserialize(crate::yaml::to_json(&tree))
            .map_err(|e| format!("{}: {}", e.path(), e.inner()))
    }

    /// The code's entry.
    pub fn code(&self, code: &str) -> Option<&Code> {
        self.codes.iter().find(|c| c.code == code)
    }

    /// The component of a code: `EI0006` → `EI`; `E19999` → `E1`;
    /// `507033` → `507`.
    pub fn component(&self, code: &str) -> Option<&Prefix> {
        if code.starts_with(|c: char| c.is_ascii_digit()) {
            let range = numeric_range(code)?;
            return self.prefixes.iter().find(|p| p.prefix == range);
        }
        let key = code.get(..2)?;
        let key = format!("E{}", &key[1..]);
        self.prefixes.iter().find(|p| p.prefix == key)
    }
}

/// `rules/cann/codes.yaml`, embedded as the JSON build.rs made of it.
pub const TABLE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/cann_codes.json"));

/// The embedded table, read once. A broken table is empty (and fails the tests).
pub fn table() -> &'static CodeTable {
    static T: OnceLock<CodeTable> = OnceLock::new();
    T.get_or_init(|| serde_json::from_str(TABLE_JSON).unwrap_or_default())
}

/// `log.cann_code` facts for the codes on a line.
pub fn facts_for_line(at: LineRef, segment: u32, node: Option<NodeId>, text: &str, out: &mut Vec<Fact>) {
    for code in codes_in(text) {
        out.push(Fact {
            name: FACTS[0].name,
            subject: Some(code.clone()),
            value: FactValue::Str(code),
            node,
            origin: Origin::Line { at, segment, text: text.into() },
        });
    }
}

/// Texts of the generic finding, in both languages.
pub mod texts {
    use crate::text::Text;

    /// The finding's title for one code: `CANN error EI0006: <title>`.
    pub fn title_one(code: &str, title: &Text) -> Text {
        Text::new(format!("CANN error {code}: {}", title.en), format!("CANN 错误 {code}：{}", title.zh))
    }

    /// The finding's title for several codes.
    pub fn title_many(codes: &[String]) -> Text {
        let list = codes.join(", ");
        Text::new(format!("CANN error codes {list}"), format!("CANN 错误码 {list}"))
    }

    /// The opening of the summary.
    pub fn intro() -> Text {
        Text::new(
            "No rule recognises this failure, but CANN printed an error code with it. What the code means and where to look first:",
            "没有规则识别出这个故障，但 CANN 随报错打印了错误码。该错误码的含义以及首先要检查的地方：",
        )
    }

    /// The component line of the summary.
    pub fn component(code: &str, component: &Text) -> Text {
        Text::new(format!("{code} comes from {}.", component.en), format!("{code} 来自 {}。", component.zh))
    }

    /// A step's title: the n-th check of a code.
    pub fn check_title(code: &str, n: usize) -> Text {
        Text::new(format!("{code}: check {n}"), format!("{code}：检查 {n}"))
    }

    /// The fix: read the full message around the code.
    pub fn fix_title() -> Text {
        Text::new(
            "Read the whole message around the code in the plog: the text after the code names the cause",
            "在 plog 中查看错误码前后的完整信息：错误码后面的文字说明了原因",
        )
    }

    /// The annotation of a torch_npu code in the unexplained panel.
    pub fn torch_npu(code: &str, kind: super::TorchNpuKind) -> Text {
        use super::TorchNpuKind::*;
        match kind {
            Acl => Text::new(
                format!(
                    "{code}: torch_npu's code for an AscendCL call that failed. It is the messenger: the ACL return code \
                     (`error code is …`) and CANN's report printed with it (E… codes, `[FUNC:…]` lines) name the cause"
                ),
                format!(
                    "{code}：torch_npu 表示某个 AscendCL 调用失败的错误码。它只是转述者：与它一起打印的 ACL 返回码（`error code is …`）\
                     和 CANN 的报错（E 开头的错误码、`[FUNC:…]` 行）才说明原因"
                ),
            ),
            Hccl => Text::new(
                format!(
                    "{code}: torch_npu's code for an HCCL call that failed. HCCL's return code and its report printed with it \
                     (EI… / EJ… codes, the rank and the peer it could not reach) name the cause"
                ),
                format!(
                    "{code}：torch_npu 表示某个 HCCL 调用失败的错误码。与它一起打印的 HCCL 返回码和报错（EI… / EJ… 错误码、\
                     连不上的 rank 与对端）才说明原因"
                ),
            ),
            Own => Text::new(
                format!(
                    "{code}: torch_npu's own error code, not CANN's. The words after it say what kind of check failed; \
                     the traceback's last frames say which call"
                ),
                format!("{code}：torch_npu 自己的错误码，不是 CANN 的。它后面的文字说明是哪类检查失败；traceback 的最后几帧说明是哪个调用"),
            ),
        }
    }

    /// The component annotation of an unknown code in the unexplained panel.
    pub fn unknown(code: &str, component: &Text) -> Text {
        Text::new(
            format!("{code}: a code of {} that roll-doctor does not explain yet", component.en),
            format!("{code}：来自{}的错误码，roll-doctor 尚未收录其含义", component.zh),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torch_npu_codes_are_read_with_their_kind() {
        use TorchNpuKind::*;
        for (line, want) in [
            (
                "[ERROR] 2026-01-26-03:28:29 (PID:2805207, Device:1, RankID:-1) ERR00100 PTA call acl api failed.",
                Some(("ERR00100", Acl)),
            ),
            (
                "[ERROR] 2025-03-01-10:00:00 (PID:1, Device:0, RankID:3) ERR02200 DIST call hccl api failed.",
                Some(("ERR02200", Hccl)),
            ),
            (
                "[ERROR] 2025-03-01-10:00:00 (PID:1, Device:0, RankID:-1) ERR01005 OPS internal error",
                Some(("ERR01005", Own)),
            ),
            ("ERR99999 UNKNOWN applicaiton exception", Some(("ERR99999", Own))),
            ("XERR00100 PTA call acl api failed", None),
            ("ERR0010 PTA call acl api failed", None),
            ("ERR00100 pta lower case", None),
            ("ERRORS: none", None),
        ] {
            assert_eq!(torch_npu_code(line), want, "{line}");
        }
    }

    #[test]
    fn the_table_loads_and_is_bilingual() {
        let t = table();
        assert!(t.prefixes.len() >= 20, "{} prefixes", t.prefixes.len());
        assert!(t.codes.len() >= 30, "{} codes", t.codes.len());
        for p in &t.prefixes {
            assert!(p.component.is_complete() && p.checks.is_complete(), "{}", p.prefix);
        }
        for c in &t.codes {
            assert!(c.title.is_complete() && c.meaning.is_complete(), "{}", c.code);
            assert!(t.component(&c.code).is_some(), "{}: no component", c.code);
            for k in &c.checks {
                assert!(Text::new(k.en.clone(), k.zh.clone()).is_complete(), "{}", c.code);
            }
        }
        assert_eq!(t.component("EI0006").unwrap().prefix, "EI");
        assert_eq!(t.component("E19999").unwrap().prefix, "E1");
        assert_eq!(t.component("507033").unwrap().prefix, "507");
        for range in RANGES {
            assert!(t.component(&format!("{range}000")).is_some(), "{range}: no component");
        }
        assert!(t.component("123456").is_none());
        // The pattern reads exactly the listed ranges.
        for first in 100..1000 {
            let code = format!("{first}001");
            let read = codes_in(&format!("error code is {code}")) == [code.clone()];
            assert_eq!(read, RANGES.contains(&&code[..3]), "{code}");
        }
    }

    #[test]
    fn every_printed_shape_is_found() {
        let cases = [
            ("EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out.", "EI0006"),
            ("[PID: 749] 2026-01-05-10:00:00.000.000 Get_Socket_Timeout(EI0006): timeout", "EI0006"),
            ("EZ9999[PID: 154893] 2026-08-05-20:04:30.407.624 (EZ9999):  The error from device", "EZ9999"),
            ("EH9999: Inner Error!", "EH9999"),
            ("EH9999  [Init][Env]init env failed![FUNC:ReportInnerError]", "EH9999"),
            ("call aclnnCast failed, detail:EZ1001: the size of tensor", "EZ1001"),
            ("[rank0]: EJ0003: [PID: 159] 2025-01-01 Failed to bind the IP port.", "EJ0003"),
            ("RuntimeError: Memory_Allocation_Failure(EL0004): Failed to allocate memory.", "EL0004"),
            ("E39999: Inner Error, Please contact support engineer!", "E39999"),
            // vllm-project/vllm-ascend#4284: inside a JSON error body.
            (
                r#"500: {"detail":"NPU function error: c10_npu::SetDevice(device_index)\nE30006: 2025-11-19-11:14:58.516.606 Failed to verify the OPP\n"}"#,
                "E30006",
            ),
            // Return codes, in the phrases real pastes print them in.
            ("RuntimeError: NPU function error: c10_npu::SetDevice(device_id_), error code is 507033", "507033"),
            ("(InvalidArgument) ACL error, the error code is : 500002. (at acl_op.cc:120)", "500002"),
            ("RuntimeError: ACL stream synchronize failed, error code:507014", "507014"),
            (
                "        wait for compute device to finish failed, runtime result = 507018.[FUNC:ReportCallError]",
                "507018",
            ),
            ("        build op model failed, result = 500001[FUNC:ReportInnerError]", "500001"),
            ("[ERROR] aclrtSetDevice(deviceId) failed: 507033 (/tmp/x.cpp:12)", "507033"),
            ("RuntimeError: launch failed for Cast, errno:561000.", "561000"),
            ("[NNOP][NnopbaseOpLogE][1851] errno[161001] OpName:[HcPre_0]", "161001"),
            ("rtDeviceSynchronizeWithTimeout:ErrCode=507015, desc=[aicore exception]", "507015"),
            ("rtMemcpy:ErrCode=107030, desc=[x]", "107030"),
            // The runtime API's own summary line after its trace (LlamaFactory#4836).
            ("        rtKernelLaunchWithHandleV2 failed: 507035 ", "507035"),
            // CANN's aclnn samples print every failed call as `<api> failed. ERROR: <code>` (a user's
            // log of one, pasted in a write-up); a device runner's own log prints the API name with
            // `failed: <code>` and then `error_code=<code>` (hw-native-sys/simpler#2395).
            ("[2025-12-03 08:36:28] aclnnFloorGetWorkspaceSize failed. ERROR: 561103", "561103"),
            ("BootstrapDispatcher: [load_aicpu_op.cpp:211] BootstrapDispatcher: aclrtSynchronizeStream failed: 507018", "507018"),
            ("  error_code=507018 (device-level; not attributed to any run)", "507018"),
            // ATB (MindIE's operator library) naming the aclnn status of a failed call (itove/ascend's
            // MindIE log).
            ("[2025-10-28 16:41:52.318702] [error] [39402] [graph_operation.cc:73] gmmNode call SetAclNNWorkspaceExecutor fail, error:161002", "161002"),
            // MindSpore's task-failure dump (mindocr#615).
            ("[ERROR] DEVICE(2420702,fffe06ffd1e0,python):2023-11-20-15:34:32.886.561 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_kernel_runtime.cc:761] DumpTaskExceptionInfo] Task fail infos task_id: 2, stream_id: 45, tid: 2420702, device_id: 0, retcode: 507011 ( model execute failed)", "507011"),
            // A C++ store's own ACL wrapper (unified-cache-management#143).
            ("[UCMNFSSTORE] [E] ACL ERROR: api=aclrtMallocHost, code=107002, caller=MakeBuffer,aclrt_device.cc:106.", "107002"),
            // Ascend/samples' ACL apps (Ascend/samples#16) and CANN's start-up check.
            ("[ERROR]  acl set device 0 failed, errorCode = 507033", "507033"),
            ("        [Init][Version]init soc version failed, ret = 507008[FUNC:ReportInnerError]", "507008"),
            ("Call aclInit(nullptr) failed : 507008 at file /work/PaddleCustomDevice/backends/npu/runtime/runtime.cc line 403", "507008"),
            // onnxruntime's CANN execution provider (cann_call.cc: `{lib} failure {code}: …`).
            (
                "[E:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 500001: ACL_ERROR_FAILURE ; NPU=0 ; hostname=ecs-b520 ; expr=aclopCompileAndExecute(",
                "500001",
            ),
            // MindSpore's stream manager (modelbox-ai/modelbox#357).
            ("Create stream failed, ret:207000", "207000"),
            // The runtime's report of the module a device fault came from (device.cc).
            ("[ERROR] RUNTIME(78,python):2024-03-11-02:22:34.958.809 [device.cc:227]78 Init:report error module_type=0, module_name=EE9999", "EE9999"),
            // Typed by a reporter, capitalised and in Markdown bold (ggml-org/llama.cpp#15330).
            ("**Error code**: 507035. ", "507035"),
            ("Error Code: 507033", "507033"),
        ];
        for (line, code) in cases {
            assert_eq!(codes_in(line), vec![code.to_string()], "{line}");
            assert!(crate::pattern::compile(SIGNATURE).unwrap().is_match(line.as_bytes()), "{line}");
        }
    }

    #[test]
    fn look_alikes_are_not_codes() {
        for line in [
            "ERR00100 PTA call acl api failed",
            "[E331 20:50:12.688] boom",
            "E0507 21:07:20.134506 error",
            "error code = 0x800000, InnerCode=0x703001c",
            // A number out of the return-code ranges, or without the phrase.
            "HTTP error code is 404; retry 100001 times",
            "error code is 123456",
            "result = 5070331",
            "interpret = 507033",
            "interpret:507033",
            "ret: 0x5",
            "flake8: E501 line too long",
            "see EI0006 in the docs",
            r"C:\nE30006 is a path",
            "te_rmsnorm_aae85c",
            // `failed: N` after a word that is not a runtime API name.
            "transport failed: 507035",
            "rtx failed: 507035",
            "acl failed: 507035",
            "aclx failed. ERROR: 507035",
            // ATB's form takes a code from the ranges only (`HcclCommInitRootInfo fail, error:2`).
            "AllGatherHcclRunner:0 HcclCommInitRootInfo fail, error:2, rank:1, rankSize:4",
            "download fail, error: 404",
        ] {
            assert!(codes_in(line).is_empty(), "{line}");
            assert!(!crate::pattern::compile(SIGNATURE).unwrap().is_match(line.as_bytes()), "{line}");
        }
    }

    /// The build leaves `source` and `seen_in` out of the embedded table;
    /// the YAML must still say where every entry is documented.
    #[test]
    fn every_entry_of_the_yaml_names_its_source() {
        let yaml = CodeTable::parse(include_str!("../../../rules/cann/codes.yaml")).expect("the YAML parses");
        assert_eq!(yaml.codes.len(), table().codes.len());
        for p in &yaml.prefixes {
            assert!(!p.source.trim().is_empty(), "{}", p.prefix);
        }
        for c in &yaml.codes {
            assert!(!c.source.trim().is_empty(), "{}", c.code);
        }
        assert!(table().codes.iter().all(|c| c.source.is_empty() && c.seen_in.is_empty()));
    }

    #[test]
    fn a_warning_carries_no_code() {
        // The line matches the pattern (the set cannot look behind), but its
        // number is torch_npu's warning, not a failure's code.
        assert!(codes_in("[W NPUStream.cpp:365] Warning: NPU warning, error code is 107020[Error]: .").is_empty());
    }

    #[test]
    fn texts_are_bilingual() {
        let t = Text::new("x", "叉");
        for x in [
            texts::title_one("EI0006", &t),
            texts::title_many(&["EI0006".into(), "EZ9999".into()]),
            texts::intro(),
            texts::component("EI0006", &t),
            texts::check_title("EI0006", 1),
            texts::fix_title(),
            texts::unknown("EX1234", &t),
        ] {
            assert!(x.is_complete(), "{x:?}");
        }
    }
}
