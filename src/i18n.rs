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
    ("kind_ascend-version", "Ascend version file", "昇腾版本文件"),
    ("kind_node-info", "host name and addresses", "主机名和地址"),
    ("kind_expected-nodes", "expected nodes", "预期节点"),
    ("kind_unrecognised", "not recognised", "未识别"),
    // inputs
    ("input_n", "Input {n}", "输入 {n}"),
    ("input_label_ph", "Label: node or rank (e.g. node-1)", "标签：节点或 rank（如 node-1）"),
    ("input_label_aria", "Label of input {n}", "输入 {n} 的标签"),
    ("input_text_aria", "Text of input {n}", "输入 {n} 的内容"),
    ("add_input", "Add another input", "再添加一段输入"),
    ("remove_input_aria", "Remove input {n}", "删除输入 {n}"),
    ("open_files", "Open log files…", "打开日志文件…"),
    ("drop_hint", "Log files can also be dropped anywhere on this page.", "也可以把日志文件拖放到本页面任意位置。"),
    ("drop_here", "Drop the files to add them as inputs", "松开即可把文件添加为输入"),
    ("reading_file", "Reading {name}: {pct}%", "正在读取 {name}：{pct}%"),
    ("read_failed", "Could not read {name}.", "无法读取 {name}。"),
    ("diagnosing", "Diagnosing…", "正在诊断…"),
    (
        "file_card",
        "{name}: {size}, {lines} lines. Too large to edit here; it is diagnosed as it is.",
        "{name}：{size}，共 {lines} 行。内容过大，不在此处编辑，按原样诊断。",
    ),
    ("show_text", "Show the text", "查看内容"),
    ("pasted_text", "Pasted text", "粘贴的文本"),
    (
        "not_saved_large",
        "Too large to keep in this browser ({size}): it will not come back after a reload.",
        "内容过大（{size}），不会保存在本浏览器中，刷新页面后不会恢复。",
    ),
    (
        "omitted_restored",
        "This input ({size}) was too large to keep after a reload: paste or drop it again.",
        "该输入（{size}）过大，刷新后未能保留：请重新粘贴或拖入。",
    ),
    (
        "storage_unavailable",
        "This browser does not let the page keep your inputs: they will be lost on reload.",
        "本浏览器不允许页面保存输入内容：刷新页面后输入会丢失。",
    ),
    (
        "saved_note",
        "Your inputs are kept in this browser as you type; Clear removes them.",
        "输入内容会随时保存在本浏览器中；点击“清空”即可删除。",
    ),
    ("seg_kind_aria", "Kind of {range}", "{range}的类型"),
    ("seg_overridden", "your choice", "手动指定"),
    // findings and steps
    ("line_n_aria", "Show line {n} in the input", "在输入中查看第 {n} 行"),
    ("from_symptom", "your symptom", "你选择的症状"),
    ("remove_symptom", "Remove this symptom", "移除该症状"),
    ("step_next", "next", "下一步"),
    ("step_answer", "Answer this check", "回答此项检查"),
    ("your_answer", "Your answer", "你的回答"),
    ("change_answer", "Change", "修改"),
    ("paste_output_label", "Paste the output of the command here:", "在此粘贴该命令的输出："),
    ("paste_output_ph", "Output of the command…", "命令的输出…"),
    ("add_output", "Add output and diagnose again", "添加输出并重新诊断"),
    ("or_click", "Or pick what you saw:", "或者直接选择你看到的结果："),
    ("copy_aria", "Copy to the clipboard", "复制到剪贴板"),
    (
        "unexplained_help",
        "These lines look like failures but no rule explains them; include them when you ask for help.",
        "这些行看起来像错误，但没有规则能解释；求助时请一并附上。",
    ),
    ("n_times", "×{n}", "{n} 次"),
    ("text_not_shared", "(text not shared)", "（未分享原文）"),
    // log view
    ("log_title", "{input}, line {n}", "{input}，第 {n} 行"),
    ("log_window", "Lines {a}–{b} of {n}", "第 {a}–{b} 行，共 {n} 行"),
    ("close", "Close", "关闭"),
    ("input_fallback", "input {n}", "输入 {n}"),
    // symptoms
    ("symptoms_title", "Or start from a symptom", "或者从症状开始"),
    (
        "symptoms_help",
        "Nothing to paste yet? Pick what you see and answer the questions to narrow it down.",
        "暂时没有可粘贴的内容？选择你遇到的现象，再回答问题逐步缩小范围。",
    ),
    ("grp_hccl", "HCCL / network", "HCCL / 网络"),
    ("grp_ray", "Ray", "Ray 集群"),
    ("grp_npu", "NPU & driver", "NPU 与驱动"),
    ("grp_env", "Environment & packages", "环境与软件包"),
    ("grp_config", "Config", "配置"),
    ("grp_perf", "Memory & performance", "显存与性能"),
    ("grp_other", "Other", "其他"),
    // share
    ("markdown", "Copy as Markdown", "复制为 Markdown"),
    ("share", "Share link", "分享链接"),
    ("share_title", "Share this diagnosis", "分享此诊断"),
    (
        "share_help",
        "The link carries the findings, the facts they rest on (redacted) and your answers, not your logs.",
        "链接只包含诊断结果、其依据的事实（已脱敏）和你的回答，不包含日志原文。",
    ),
    ("share_excerpts", "Include redacted evidence lines", "附带脱敏后的证据行"),
    ("share_len", "{n} characters", "{n} 个字符"),
    ("share_url_aria", "Share link to copy", "待复制的分享链接"),
    ("copy_link", "Copy link", "复制链接"),
    ("share_preview", "Exactly what the link carries", "链接携带的全部内容"),
    ("mapping_title", "Replacements: this table stays on this page", "替换对照表：只保留在本页面，不会被分享"),
    ("mapping_kind", "Kind", "类型"),
    ("mapping_placeholder", "In the link", "链接中显示为"),
    ("mapping_original", "Original", "原始值"),
    ("mapping_empty", "Nothing needed replacing.", "没有需要替换的内容。"),
    // shared view and link errors
    ("shared_banner", "A shared diagnosis (read-only).", "这是他人分享的诊断（只读）。"),
    (
        "shared_rules_changed",
        "It was made with another rule pack ({v}); the current rules may see it differently.",
        "该链接由另一版本的规则包（{v}）生成，当前规则的结论可能不同。",
    ),
    ("shared_missing", "No longer found by the current rules: {ids}", "当前规则已不再给出：{ids}"),
    (
        "shared_no_text",
        "The sender did not include the evidence text; line numbers only.",
        "分享者未附带证据原文，只显示行号。",
    ),
    ("shared_close", "Close and go back to my inputs", "关闭，返回我的输入"),
    ("link_err_title", "This share link cannot be opened.", "无法打开该分享链接。"),
    ("link_err_not_link", "The address does not hold a roll-doctor diagnosis.", "该地址中不包含 roll-doctor 诊断。"),
    (
        "link_err_future",
        "It was made by a newer roll-doctor (link version {v}); open it with that version.",
        "该链接由更新版本的 roll-doctor 生成（链接版本 {v}），请用新版本打开。",
    ),
    ("link_err_too_large", "It is larger than any link roll-doctor makes.", "它比 roll-doctor 生成的任何链接都大。"),
    (
        "link_err_corrupt",
        "It is damaged or cut off: copy the whole link again.",
        "链接已损坏或不完整：请重新复制完整链接。",
    ),
    ("link_err_kept", "Your own inputs are untouched.", "你自己的输入未受影响。"),
    ("dismiss", "Dismiss", "知道了"),
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
        InputKind::AscendVersion => "kind_ascend-version",
        InputKind::NodeInfo => "kind_node-info",
        InputKind::ExpectedNodes => "kind_expected-nodes",
        InputKind::Unrecognised => "kind_unrecognised",
    }
}

/// A byte count for people: `812 B`, `14.2 KB`, `10.5 MB` (the units read
/// the same in both languages).
pub fn format_size(bytes: usize) -> String {
    let b = bytes as f64;
    if bytes < 1024 {
        format!("{bytes} B")
    } else if b < 1024.0 * 1024.0 {
        format!("{:.1} KB", b / 1024.0)
    } else {
        format!("{:.1} MB", b / 1024.0 / 1024.0)
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

    /// The page's sources (wasm-only, so scanned as text).
    const APP_SOURCES: &[(&str, &str)] = &[
        ("app.rs", include_str!("app.rs")),
        ("inputs.rs", include_str!("inputs.rs")),
        ("view.rs", include_str!("view.rs")),
        ("web.rs", include_str!("web.rs")),
        ("persist.rs", include_str!("persist.rs")),
        ("symptoms.rs", include_str!("symptoms.rs")),
    ];

    /// Every literal key the page passes to `t(…, "key")` / `tf(…, "key", …)`
    /// is in the table, and so is every `"grp_…"` / `"kind_…"` key it names.
    #[test]
    fn keys_used_by_the_app_exist() {
        let mut used = 0;
        for (file, src) in APP_SOURCES {
            let bytes = src.as_bytes();
            for pat in ["t(", "tf("] {
                for (i, _) in src.match_indices(pat) {
                    if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b'.') {
                        continue;
                    }
                    // the first argument (a short expression), then `, "key"`
                    let rest = &src[i + pat.len()..];
                    let Some(q) = rest.find('"') else { continue };
                    let first = &rest[..q];
                    if first.len() > 40 || first.contains([';', '{', '"']) || !first.trim_end().ends_with(',') {
                        continue;
                    }
                    let key_rest = &rest[q + 1..];
                    let key = &key_rest[..key_rest.find('"').unwrap()];
                    assert!(STRINGS.iter().any(|(k, _, _)| *k == key), "{file} uses missing key {key:?}");
                    used += 1;
                }
            }
            // `count_of(n, "one_key", "many_key")` calls.
            for line in src.lines().filter(|l| l.contains("count_of(") && !l.contains("|n: usize")) {
                for key in line.split('"').skip(1).step_by(2) {
                    assert!(STRINGS.iter().any(|(k, _, _)| *k == key), "{file} uses missing key {key:?}");
                    used += 1;
                }
            }
            for prefix in ["\"grp_", "\"link_err_"] {
                for (i, _) in src.match_indices(prefix) {
                    let key = &src[i + 1..];
                    let key = &key[..key.find('"').unwrap()];
                    assert!(STRINGS.iter().any(|(k, _, _)| *k == key), "{file} names missing key {key:?}");
                }
            }
        }
        assert!(used > 60, "scanner found only {used} keys");
    }

    #[test]
    fn every_symptom_group_has_a_name() {
        for a in roll_doctor_engine::Area::ALL {
            let key = crate::symptoms::area_key(a);
            assert!(STRINGS.iter().any(|(k, _, _)| *k == key), "no name for {a:?}");
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(format_size(812), "812 B");
        assert_eq!(format_size(14_541), "14.2 KB");
        assert_eq!(format_size(10 * 1024 * 1024 + 512 * 1024), "10.5 MB");
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
