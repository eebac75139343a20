//! The web page's own strings, in English and Chinese.
//!
//! Texts that come from the rules (titles, summaries, steps, fixes) and the
//! report labels shared with the CLI (`render::label`) live in the engine;
//! this table holds only the page chrome. Every key has both forms, and the
//! Chinese form holds Chinese (a native test checks it). Templates use
//! `{name}` placeholders, filled by [`tf`].

use roll_doctor_engine::text::has_cjk;
pub use roll_doctor_engine::{InputKind, Lang};

/// `(key, en, zh)` for every string the page shows.
pub const STRINGS: &[(&str, &str, &str)] = &[
    ("doc_title", "roll-doctor: diagnose ROLL on Ascend NPU", "roll-doctor：昇腾 NPU 上的 ROLL 故障诊断"),
    ("tagline", "Diagnose ROLL training failures on Ascend NPU clusters", "诊断昇腾 NPU 集群上的 ROLL 训练故障"),
    (
        "privacy",
        "Runs entirely in your browser: nothing you paste leaves this page.",
        "完全在浏览器中运行：粘贴的内容不会离开本页面。",
    ),
    ("lang_label", "Language", "语言"),
    ("input_label", "Logs, configs and command output", "日志、配置和命令输出"),
    (
        "placeholder",
        "Paste anything here: a ROLL YAML config, a training / plog / Ray log, or a terminal transcript with \
         npu-smi info, hccn_tool, ss -tlnp, ulimit -n, pip list, env, ray status, docker run …\n\n\
         Several outputs can go in one paste; keep the $ prompt lines so each part is recognised.",
        "在此粘贴任意内容：ROLL 的 YAML 配置、训练日志 / plog / Ray 日志，或包含 npu-smi info、hccn_tool、\
         ss -tlnp、ulimit -n、pip list、env、ray status、docker run 等命令输出的终端记录……\n\n\
         可以把多段输出放在一起粘贴；保留 $ 提示符所在的命令行，便于识别每一段。",
    ),
    ("diagnose", "Diagnose", "诊断"),
    ("clear", "Clear", "清空"),
    ("example", "Load an example", "载入示例"),
    ("shortcut", "Diagnoses as you type; Ctrl+Enter diagnoses at once.", "输入时自动诊断；按 Ctrl+Enter 立即诊断。"),
    ("hint_title", "How to use", "使用方法"),
    (
        "hint_1",
        "Paste the failing job's log: the first error usually matters most.",
        "粘贴失败任务的日志：最先出现的错误通常最关键。",
    ),
    (
        "hint_2",
        "Add the ROLL YAML config and the output of the commands a finding asks for.",
        "再贴上 ROLL 的 YAML 配置，以及诊断结果中要求运行的命令的输出。",
    ),
    (
        "hint_3",
        "Each finding lists the evidence lines, the checks to run in order, and copyable fixes.",
        "每条诊断结果都列出证据行、按顺序执行的检查和可复制的修复方法。",
    ),
    ("hint_commands", "Useful to include:", "建议一并粘贴："),
    (
        "empty_next",
        "If the job still fails, paste more of its log (the first error matters most) or the output of these commands:",
        "如果任务仍然失败，请粘贴更多日志（最先出现的错误最关键），或以下命令的输出：",
    ),
    ("findings_one", "1 finding", "发现 1 个问题"),
    ("findings_many", "{n} findings", "发现 {n} 个问题"),
    ("n_line", "1 line", "1 行"),
    ("n_lines", "{n} lines", "{n} 行"),
    ("n_part", "1 part", "1 段"),
    ("n_parts", "{n} parts", "{n} 段"),
    ("n_ms", "{n} ms", "{n} 毫秒"),
    ("segments_title", "What the input was taken to be", "输入内容识别结果"),
    ("seg_line", "line {a}", "第 {a} 行"),
    ("seg_lines", "lines {a}–{b}", "第 {a}–{b} 行"),
    ("step_ask", "to check", "待检查"),
    ("copy", "Copy", "复制"),
    ("copied", "Copied", "已复制"),
    ("copy_failed", "Copy failed", "复制失败"),
    ("more_evidence", "+{n} more lines", "另有 {n} 行未显示"),
    ("rules_version", "rule pack {v}", "规则包 {v}"),
    ("rule_id", "rule", "规则"),
    ("colon", ": ", "："),
    ("kind_log", "log", "日志"),
    ("kind_roll-config", "ROLL config", "ROLL 配置"),
    ("kind_npu-smi", "npu-smi output", "npu-smi 输出"),
    ("kind_hccn-tool", "hccn_tool output", "hccn_tool 输出"),
    ("kind_ss", "ss output", "ss 输出"),
    ("kind_ip-route", "ip route output", "ip route 输出"),
    ("kind_ulimit", "ulimit output", "ulimit 输出"),
    ("kind_env", "environment variables", "环境变量"),
    ("kind_pip-list", "pip package list", "pip 包列表"),
    ("kind_ray-status", "ray status output", "ray status 输出"),
    ("kind_docker-run", "docker run command", "docker run 命令"),
    ("kind_unrecognised", "not recognised", "未识别"),
];

/// The string `key` in `lang`; the key itself when it is missing (a test
/// makes sure no key the page uses is missing).
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    STRINGS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, en, zh)| if lang == Lang::Zh { *zh } else { *en })
        .unwrap_or(key)
}

/// The template `key` in `lang` with each `{name}` replaced by its value.
pub fn tf(lang: Lang, key: &'static str, args: &[(&str, &str)]) -> String {
    let mut s = t(lang, key).to_string();
    for (name, value) in args {
        s = s.replace(&format!("{{{name}}}"), value);
    }
    s
}

/// The table key naming an input kind.
pub fn kind_key(kind: InputKind) -> &'static str {
    match kind {
        InputKind::Log => "kind_log",
        InputKind::RollConfig => "kind_roll-config",
        InputKind::NpuSmi => "kind_npu-smi",
        InputKind::HccnTool => "kind_hccn-tool",
        InputKind::Ss => "kind_ss",
        InputKind::IpRoute => "kind_ip-route",
        InputKind::Ulimit => "kind_ulimit",
        InputKind::Env => "kind_env",
        InputKind::PipList => "kind_pip-list",
        InputKind::RayStatus => "kind_ray-status",
        InputKind::DockerRun => "kind_docker-run",
        InputKind::Unrecognised => "kind_unrecognised",
    }
}

/// The language for a stored choice (`en`/`zh`), else the browser's
/// language (`zh-*` gives Chinese), else English.
pub fn initial_lang(stored: Option<&str>, browser: Option<&str>) -> Lang {
    stored.and_then(Lang::parse).or_else(|| browser.and_then(Lang::parse)).unwrap_or(Lang::En)
}

/// The value for `<html lang>`.
pub fn html_lang(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Zh => "zh-CN",
    }
}

/// Whether a string is a usable translation pair (used by the tests).
pub fn is_bilingual(en: &str, zh: &str) -> bool {
    !en.trim().is_empty() && !zh.trim().is_empty() && has_cjk(zh)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn placeholders(s: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut rest = s;
        while let Some(i) = rest.find('{') {
            let Some(j) = rest[i..].find('}') else { break };
            out.insert(rest[i + 1..i + j].to_string());
            rest = &rest[i + j + 1..];
        }
        out
    }

    #[test]
    fn every_key_has_english_and_chinese() {
        for (k, en, zh) in STRINGS {
            assert!(is_bilingual(en, zh), "key {k}: en={en:?} zh={zh:?}");
            assert_eq!(placeholders(en), placeholders(zh), "key {k}: placeholders differ");
        }
    }

    #[test]
    fn keys_are_unique() {
        let mut seen = BTreeSet::new();
        for (k, _, _) in STRINGS {
            assert!(seen.insert(*k), "duplicate key {k}");
        }
    }

    #[test]
    fn every_input_kind_has_a_label() {
        for kind in InputKind::ALL {
            let key = kind_key(kind);
            assert!(STRINGS.iter().any(|(k, _, _)| *k == key), "no label for {kind:?}");
            assert_ne!(t(Lang::En, key), t(Lang::Zh, key));
        }
    }

    /// Every literal key the page passes to `t`/`tf` is in the table (the
    /// app is wasm-only, so its source is scanned as text).
    #[test]
    fn keys_used_by_the_app_exist() {
        let src = include_str!("app.rs");
        let mut used = 0;
        for pat in ["t(lang, \"", "t(l, \"", "tf(lang, \"", "t(lang.get(), \""] {
            for (i, _) in src.match_indices(pat) {
                let rest = &src[i + pat.len()..];
                let key = &rest[..rest.find('"').unwrap()];
                assert!(STRINGS.iter().any(|(k, _, _)| *k == key), "app.rs uses missing key {key:?}");
                used += 1;
            }
        }
        // `count_of(n, "one_key", "many_key")` calls.
        for line in src.lines().filter(|l| l.contains("count_of(") && !l.contains("|n: usize")) {
            for key in line.split('"').skip(1).step_by(2) {
                assert!(STRINGS.iter().any(|(k, _, _)| *k == key), "app.rs uses missing key {key:?}");
                used += 1;
            }
        }
        assert!(used > 20, "scanner found only {used} keys");
    }

    #[test]
    fn templates_fill_in() {
        assert_eq!(tf(Lang::En, "findings_many", &[("n", "3")]), "3 findings");
        assert_eq!(tf(Lang::Zh, "seg_lines", &[("a", "1"), ("b", "9")]), "第 1–9 行");
    }

    #[test]
    fn language_choice() {
        assert_eq!(initial_lang(None, Some("zh-CN")), Lang::Zh);
        assert_eq!(initial_lang(None, Some("zh-TW")), Lang::Zh);
        assert_eq!(initial_lang(None, Some("en-US")), Lang::En);
        assert_eq!(initial_lang(None, Some("fr-FR")), Lang::En);
        assert_eq!(initial_lang(Some("en"), Some("zh-CN")), Lang::En);
        assert_eq!(initial_lang(Some("zh"), Some("en-GB")), Lang::Zh);
        assert_eq!(initial_lang(Some("garbage"), None), Lang::En);
    }
}
