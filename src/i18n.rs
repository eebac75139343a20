//! The web page's own strings, in English and Chinese: one table, checked
//! by the compiler.
//!
//! Texts that come from the rules (titles, summaries, steps, fixes) and the
//! report labels shared with the CLI (`render::label`) live in the engine;
//! this table holds only the page chrome. [`strings!`] turns the table into
//! the enum [`S`] with an English and a Chinese form per variant: a string
//! without its Chinese form does not compile, a misspelt key does not
//! compile, and the tests walk [`S::ALL`] (every variant) to check that the
//! Chinese form is Chinese and that both forms have the same `{name}`
//! placeholders, which [`tf`] fills.

use roll_doctor_engine::text::has_cjk;
pub use roll_doctor_engine::{Area, InputKind, Lang};

/// Declares the string table: `Variant => "English", "中文";` per line.
macro_rules! strings {
    ($($key:ident => $en:expr, $zh:expr;)*) => {
        /// A string of the page, by name; [`t`] gives it in a language.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum S { $($key,)* }

        impl S {
            /// Every string, in table order (what the tests walk).
            pub const ALL: &'static [S] = &[$(S::$key,)*];

            /// The English form.
            pub const fn en(self) -> &'static str {
                match self { $(S::$key => $en,)* }
            }

            /// The Chinese form.
            pub const fn zh(self) -> &'static str {
                match self { $(S::$key => $zh,)* }
            }
        }
    };
}

strings! {
    DocTitle => "roll-doctor: diagnose ROLL on Ascend NPU", "roll-doctor：昇腾 NPU 上的 ROLL 故障诊断";
    Tagline => "Diagnose ROLL training failures on Ascend NPU clusters", "诊断昇腾 NPU 集群上的 ROLL 训练故障";
    Privacy => "Runs entirely in your browser: nothing you paste leaves this page.",
        "完全在浏览器中运行：粘贴的内容不会离开本页面。";
    LangLabel => "Language", "语言";
    SkipToResults => "Skip to the diagnosis", "跳到诊断结果";
    InputLabel => "Logs, configs and command output", "日志、配置和命令输出";
    Placeholder => "Paste anything here: a ROLL YAML config, a training / plog / Ray log, or a terminal transcript with \
        npu-smi info, hccn_tool, ss -tlnp, ulimit -n, pip list, env, ray status, docker run …\n\n\
        Several outputs can go in one paste; keep the $ prompt lines so each part is recognised.",
        "在此粘贴任意内容：ROLL 的 YAML 配置、训练日志 / plog / Ray 日志，或包含 npu-smi info、hccn_tool、\
        ss -tlnp、ulimit -n、pip list、env、ray status、docker run 等命令输出的终端记录……\n\n\
        可以把多段输出放在一起粘贴；保留 $ 提示符所在的命令行，便于识别每一段。";
    Diagnose => "Diagnose", "诊断";
    Clear => "Clear", "清空";
    Example => "Load an example", "载入示例";
    Shortcut => "Diagnoses as you type or paste; Ctrl+Enter diagnoses at once.", "输入或粘贴时自动诊断；按 Ctrl+Enter 立即诊断。";
    HintTitle => "How to use", "使用方法";
    Hint1 => "Paste the failing job's log: the first error usually matters most.", "粘贴失败任务的日志：最先出现的错误通常最关键。";
    Hint2 => "Add the ROLL YAML config and the output of the commands a finding asks for.",
        "再贴上 ROLL 的 YAML 配置，以及诊断结果中要求运行的命令的输出。";
    Hint3 => "Each finding lists the evidence lines, the checks to run in order, and copyable fixes.",
        "每条诊断结果都列出证据行、按顺序执行的检查和可复制的修复方法。";
    HintCommands => "Useful to include:", "建议一并粘贴：";
    EmptyNext => "If the job still fails, paste more of its log (the first error matters most) or the output of these commands:",
        "如果任务仍然失败，请粘贴更多日志（最先出现的错误最关键），或以下命令的输出：";
    FindingsOne => "1 finding", "发现 1 个问题";
    FindingsMany => "{n} findings", "发现 {n} 个问题";
    NLine => "1 line", "1 行";
    NLines => "{n} lines", "{n} 行";
    NPart => "1 part", "1 段";
    NParts => "{n} parts", "{n} 段";
    NMs => "{n} ms", "{n} 毫秒";
    SegmentsTitle => "What the input was taken to be", "输入内容识别结果";
    SegLine => "line {a}", "第 {a} 行";
    SegLines => "lines {a}–{b}", "第 {a}–{b} 行";
    StepAsk => "to check", "待检查";
    Copy => "Copy", "复制";
    Copied => "Copied", "已复制";
    CopyFailed => "Copy failed", "复制失败";
    MoreEvidence => "+{n} more lines", "另有 {n} 行未显示";
    RulesVersion => "rule pack {v}", "规则包 {v}";
    RuleId => "rule", "规则";
    Colon => ": ", "：";
    KindLog => "log", "日志";
    KindRollConfig => "ROLL config", "ROLL 配置";
    KindNpuSmi => "npu-smi output", "npu-smi 输出";
    KindHccnTool => "hccn_tool output", "hccn_tool 输出";
    KindSs => "ss output", "ss 输出";
    KindIpRoute => "ip route output", "ip route 输出";
    KindUlimit => "ulimit output", "ulimit 输出";
    KindEnv => "environment variables", "环境变量";
    KindPipList => "pip package list", "pip 包列表";
    KindRayStatus => "ray status output", "ray status 输出";
    KindDockerRun => "docker run command", "docker run 命令";
    KindAscendVersion => "Ascend version file", "昇腾版本文件";
    KindNodeInfo => "host name and addresses", "主机名和地址";
    KindExpectedNodes => "expected nodes", "预期节点";
    KindUnrecognised => "not recognised", "未识别";
    // inputs
    InputN => "Input {n}", "输入 {n}";
    InputLabelPh => "Label: node or rank (e.g. node-1)", "标签：节点或 rank（如 node-1）";
    InputLabelAria => "Label of input {n}", "输入 {n} 的标签";
    InputTextAria => "Text of input {n}", "输入 {n} 的内容";
    AddInput => "Add another input", "再添加一段输入";
    RemoveInputAria => "Remove input {n}", "删除输入 {n}";
    OpenFiles => "Open log files…", "打开日志文件…";
    DropHint => "Log files can also be dropped anywhere on this page.", "也可以把日志文件拖放到本页面任意位置。";
    DropHere => "Drop the files to add them as inputs", "松开即可把文件添加为输入";
    ReadingFile => "Reading {name}: {pct}%", "正在读取 {name}：{pct}%";
    DiagnosingFile => "Diagnosing {name} ({size})…", "正在诊断 {name}（{size}）…";
    ReadFailed => "Could not read {name}.", "无法读取 {name}。";
    Diagnosing => "Diagnosing…", "正在诊断…";
    Cancel => "Cancel", "取消";
    CancelAria => "Cancel reading and diagnosing {name}", "取消读取和诊断 {name}";
    Cancelled => "Cancelled: {name} was not diagnosed.", "已取消：未诊断 {name}。";
    EngineFailed => "The diagnosis engine stopped unexpectedly. Reload the page; your inputs are kept.",
        "诊断引擎意外停止。请刷新页面，输入内容会保留。";
    FileCard => "{name}: {size}, {lines} lines. Too large to edit here; it is diagnosed as it is.",
        "{name}：{size}，共 {lines} 行。内容过大，不在此处编辑，按原样诊断。";
    FileCardPending => "{name}: {size}. Too large to edit here; it is diagnosed as it is.",
        "{name}：{size}。内容过大，不在此处编辑，按原样诊断。";
    ShowText => "Show the text", "查看内容";
    PastedText => "Pasted text", "粘贴的文本";
    NotSavedLarge => "Too large to keep in this browser ({size}): it will not come back after a reload.",
        "内容过大（{size}），不会保存在本浏览器中，刷新页面后不会恢复。";
    OmittedRestored => "This input ({size}) was too large to keep after a reload: paste or drop it again.",
        "该输入（{size}）过大，刷新后未能保留：请重新粘贴或拖入。";
    StorageUnavailable => "This browser does not let the page keep your inputs: they will be lost on reload.",
        "本浏览器不允许页面保存输入内容：刷新页面后输入会丢失。";
    SavedNote => "Your inputs are kept in this browser as you type; Clear removes them.",
        "输入内容会随时保存在本浏览器中；点击“清空”即可删除。";
    Cleared => "Inputs, answers and symptoms cleared.", "已清空输入、回答和症状。";
    Undo => "Undo", "撤销";
    SegKindAria => "Kind of {range}", "{range}的类型";
    SegOverridden => "your choice", "手动指定";
    // rule files
    RulesTitle => "Rule files (.yaml) and knowledge bases (.json)", "规则文件（.yaml）与知识库（.json）";
    RulesHelp => "Try a new or changed rule without rebuilding: drop its .yaml file here or choose it. \
        It is used for the diagnosis in this browser only, and kept here until you remove it.",
        "无需重新构建即可试用新规则或修改后的规则：把 .yaml 文件拖到这里或选择文件。\
        规则只在本浏览器中参与诊断，并保留到你移除为止。";
    RulesPick => "Choose rule files…", "选择规则文件…";
    RulesDrop => "Drop .yaml rule files or an ascend-fd kg-config.json here",
        "把 .yaml 规则文件或 ascend-fd 的 kg-config.json 拖放到这里";
    KbHelp => "An ascend-fd knowledge base (`kg-config.json`) is matched after the built-in rules; its findings come after the built-in ones and name it as their source.",
        "ascend-fd 知识库（`kg-config.json`）在内置规则之后匹配，其结果排在内置规则的结果之后，并注明来源。";
    FromOrigin => "Source: {origin}", "来源：{origin}";
    KbLoaded => "{name}: ascend-fd knowledge base, {used} entries used, {skipped} skipped (multi-line or unsupported patterns)",
        "{name}：ascend-fd 知识库，使用 {used} 条，跳过 {skipped} 条（多行或不支持的匹配规则）";
    KbFailed => "{name} was not loaded: {error}", "{name} 未能加载：{error}";
    RulesInUse => "Extra rules in use: {ids}", "正在使用的额外规则：{ids}";
    RulesErrors => "Not loaded (every other rule still works):", "以下规则未能加载（其他规则不受影响）：";
    RulesRemove => "Remove {name}", "移除 {name}";
    RulesNotSaved => "Too large to keep in this browser: the rule files will be gone after a reload.",
        "内容过大，无法保存在本浏览器中：刷新后这些规则文件将不再生效。";
    // findings and steps
    LineNAria => "Show line {n} in the input", "在输入中查看第 {n} 行";
    FromSymptom => "your symptom", "你选择的症状";
    RemoveSymptom => "Remove this symptom", "移除该症状";
    StepNext => "next", "下一步";
    StepAnswer => "Answer this check", "回答此项检查";
    YourAnswer => "Your answer", "你的回答";
    ChangeAnswer => "Change", "修改";
    AnsweredBy => "Answered by", "回答依据";
    Conclusion => "Conclusion", "结论";
    PasteOutputLabel => "Paste the output of the command here:", "在此粘贴该命令的输出：";
    PasteOutputPh => "Output of the command…", "命令的输出…";
    AddOutput => "Add output and diagnose again", "添加输出并重新诊断";
    OrClick => "Or pick what you saw:", "或者直接选择你看到的结果：";
    Consequences => "Likely consequences of this problem ({n})", "可能由此问题引起（{n} 项）";
    ConsequenceOf => "likely a consequence of “{cause}”", "可能由“{cause}”引起";
    UnexplainedHelp => "These lines look like failures but no rule explains them; include them when you ask for help.",
        "这些行看起来像错误，但没有规则能解释；求助时请一并附上。";
    NTimes => "×{n}", "{n} 次";
    NewRule => "New rule from this line", "用这一行新建规则";
    NewRuleHelp => "A rule-file stub: fill in the texts in both languages, check the signature, add a real fix, then save it under `rules/` or drop it on the rule files box.",
        "规则文件草稿：补全中英文文本，检查匹配特征，写上真正的修复方法，然后保存到 `rules/` 目录，或拖放到规则文件区域。";
    ClusterTitle => "Cluster at a glance", "集群概览";
    ClusterHelp => "One row per node, one column per check; click a cell to go to the finding and the line it comes from.",
        "每个节点一行，每项检查一列；点击单元格可跳到对应的诊断结果及其证据行。";
    ClusterAria => "Cluster table: nodes and checks", "集群表：节点与检查项";
    ClusterMissing => "Expected but not in the cluster: {nodes}", "应在集群中但缺失的节点：{nodes}";
    CellOk => "OK", "正常";
    CellFail => "differs or failing", "不一致或异常";
    CellUnknown => "not in the input", "输入中没有";
    CellAria => "{node}, {check}: {state} {value}", "{node}，{check}：{state} {value}";
    CollectorTitle => "Collect from the nodes", "从各节点收集信息";
    CollectorHelp => "Two read-only scripts gather what a diagnosis needs (they change nothing on the node). Run one, then drop its output on this page: one bundle file, or one file per node named after the node (`node-3.txt`).",
        "两个只读脚本可收集诊断所需的信息（不会修改节点上的任何内容）。运行其中一个，再把输出拖放到本页面：一个汇总文件，或每个节点一个以节点命名的文件（`node-3.txt`）。";
    CollectorShell => "One node: a POSIX shell script. Run it on each node, or on all of them over ssh:",
        "单个节点：POSIX shell 脚本。在每个节点上运行，或通过 ssh 一次在所有节点上运行：";
    CollectorRay => "The whole Ray cluster: a Python script for the head node, with `roll-doctor-collect.sh` in the same directory. It runs the shell script on every alive Ray node and writes one bundle:",
        "整个 Ray 集群：在头节点上运行的 Python 脚本，需与 `roll-doctor-collect.sh` 放在同一目录。它会在每个存活的 Ray 节点上运行 shell 脚本，并写出一个汇总文件：";
    CopyScript => "Copy script", "复制脚本";
    DownloadScript => "Download {name}", "下载 {name}";
    TextNotShared => "(text not shared)", "（未分享原文）";
    ShellErrTitle => "Parts that look like a failed command", "看起来像命令执行失败的部分";
    ShellErrHintCmd => "Nothing to diagnose here: `{cmd}` did not run. Run it where the tool is installed \
        (inside the training container, or with the driver's PATH) and paste its output.",
        "这里没有可诊断的内容：`{cmd}` 没有成功运行。请在安装了该工具的环境中运行（训练容器内，或设置好驱动的 PATH），再粘贴其输出。";
    ShellErrHint => "Nothing to diagnose here: this is an error from the shell, not the output roll-doctor expects. \
        Run the command the check asks for where the tool is installed and paste its output.",
        "这里没有可诊断的内容：这是 shell 的报错，而不是 roll-doctor 需要的命令输出。\
        请在安装了该工具的环境中运行检查步骤要求的命令，再粘贴其输出。";
    // log view
    LogTitle => "{input}, line {n}", "{input}，第 {n} 行";
    LogWindow => "Lines {a}–{b} of {n}", "第 {a}–{b} 行，共 {n} 行";
    LogLoading => "Loading…", "加载中…";
    LogSearch => "Search this input", "在此输入中搜索";
    LogSearchPrev => "Previous match", "上一个匹配";
    LogSearchNext => "Next match", "下一个匹配";
    LogNoMatch => "No match", "没有匹配";
    LogMatches => "{m} matching lines", "{m} 行匹配";
    Close => "Close", "关闭";
    InputFallback => "input {n}", "输入 {n}";
    // symptoms
    SymptomsTitle => "Or start from a symptom", "或者从症状开始";
    SymptomsHelp => "Nothing to paste yet? Pick what you see and answer the questions to narrow it down.",
        "暂时没有可粘贴的内容？选择你遇到的现象，再回答问题逐步缩小范围。";
    SymptomsFilter => "Filter by words or error code (e.g. EI0006)", "按文字或错误码筛选（如 EI0006）";
    SymptomsNone => "No symptom matches.", "没有匹配的症状。";
    GrpHccl => "HCCL / network", "HCCL / 网络";
    GrpRay => "Ray", "Ray 集群";
    GrpNpu => "NPU & driver", "NPU 与驱动";
    GrpEnv => "Environment & packages", "环境与软件包";
    GrpConfig => "Config", "配置";
    GrpPerf => "Memory & performance", "显存与性能";
    GrpOther => "Other", "其他";
    // share
    Markdown => "Copy as Markdown", "复制为 Markdown";
    Share => "Share link", "分享链接";
    ShareTitle => "Share this diagnosis", "分享此诊断";
    ShareHelp => "The link carries the findings, the facts they rest on (redacted) and your answers, not your logs.",
        "链接只包含诊断结果、其依据的事实（已脱敏）和你的回答，不包含日志原文。";
    ShareExcerpts => "Include redacted evidence lines", "附带脱敏后的证据行";
    ShareLen => "{n} characters", "{n} 个字符";
    ShareUrlAria => "Share link to copy", "待复制的分享链接";
    CopyLink => "Copy link", "复制链接";
    ShareBase => "Address of your team's roll-doctor page", "团队 roll-doctor 页面的地址";
    ShareBasePh => "https://intranet.example/roll-doctor/", "https://intranet.example/roll-doctor/";
    ShareBaseHelp => "Links start with this address; it is kept in this browser. Leave it empty to use this page's address.",
        "分享链接以此地址开头，并保存在本浏览器中。留空则使用本页面的地址。";
    ShareBareCode => "This page was opened from a file, so the link carries only the code (no file path). \
        Anyone can open it in “Open a shared diagnosis” of any roll-doctor page, or set your team's page address above.",
        "本页面是从本地文件打开的，因此链接只包含诊断代码（不含文件路径）。\
        任何人都可以在任意 roll-doctor 页面的“打开分享的诊断”中打开它，也可以在上方设置团队页面的地址。";
    ShareBaseBad => "Not an http(s) address: the code alone is shared.", "不是 http(s) 地址：只分享诊断代码。";
    SharePreview => "Exactly what the link carries", "链接携带的全部内容";
    MappingTitle => "Replacements ({n}): this table stays on this page", "替换对照表（{n} 项）：只保留在本页面，不会被分享";
    MappingKind => "Kind", "类型";
    MappingPlaceholder => "In the link", "链接中显示为";
    MappingOriginal => "Original", "原始值";
    MappingEmpty => "Nothing needed replacing.", "没有需要替换的内容。";
    RedactEmail => "e-mail", "邮箱";
    RedactToken => "token", "令牌";
    RedactMac => "MAC address", "MAC 地址";
    RedactIpv6 => "IPv6 address", "IPv6 地址";
    RedactIpv4 => "IPv4 address", "IPv4 地址";
    RedactHost => "host name", "主机名";
    RedactUser => "user name", "用户名";
    RedactOther => "other", "其他";
    // open a shared diagnosis, offline copy
    OpenShared => "Open a shared diagnosis", "打开分享的诊断";
    OpenSharedHelp => "Paste a share link or just its code (v1=…).", "粘贴分享链接，或只粘贴其中的代码（v1=…）。";
    OpenSharedPh => "https://…#v1=…  or  v1=…", "https://…#v1=…  或  v1=…";
    OpenSharedGo => "Open", "打开";
    Offline => "Download for offline use", "下载离线版";
    OfflineHelp => "One HTML file with everything in it: copy it to an air-gapped jump host and open it there.",
        "包含全部内容的单个 HTML 文件：复制到隔离网络的跳板机上即可直接打开。";
    // shared view and link errors
    SharedBanner => "A shared diagnosis (read-only).", "这是他人分享的诊断（只读）。";
    SharedRulesChanged => "It was made with another rule pack ({v}); the current rules may see it differently.",
        "该链接由另一版本的规则包（{v}）生成，当前规则的结论可能不同。";
    SharedMissing => "No longer found by the current rules: {ids}", "当前规则已不再给出：{ids}";
    SharedNoText => "The sender did not include the evidence text; line numbers only.", "分享者未附带证据原文，只显示行号。";
    SharedClose => "Close and go back to my inputs", "关闭，返回我的输入";
    LinkErrTitle => "This share link cannot be opened.", "无法打开该分享链接。";
    LinkErrNotLink => "The address does not hold a roll-doctor diagnosis.", "该地址中不包含 roll-doctor 诊断。";
    LinkErrFuture => "It was made by a newer roll-doctor (link version {v}); open it with that version.",
        "该链接由更新版本的 roll-doctor 生成（链接版本 {v}），请用新版本打开。";
    LinkErrTooLarge => "It is larger than any link roll-doctor makes.", "它比 roll-doctor 生成的任何链接都大。";
    LinkErrCorrupt => "It is damaged or cut off: copy the whole link again.", "链接已损坏或不完整：请重新复制完整链接。";
    LinkErrKept => "Your own inputs are untouched.", "你自己的输入未受影响。";
    Dismiss => "Dismiss", "知道了";
    Crash => "roll-doctor hit an internal error; please reload the page and report the input that caused it.",
        "roll-doctor 发生内部错误，请刷新页面，并反馈导致该错误的输入。";
}

/// `s` in `lang`.
pub fn t(lang: Lang, s: S) -> &'static str {
    match lang {
        Lang::En => s.en(),
        Lang::Zh => s.zh(),
    }
}

/// `s` in `lang` with each `{name}` replaced by its value.
pub fn tf(lang: Lang, s: S, args: &[(&str, &str)]) -> String {
    let mut out = t(lang, s).to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// "1 line" / "{n} lines" by count.
pub fn count(lang: Lang, n: usize, one: S, many: S) -> String {
    if n == 1 {
        t(lang, one).to_string()
    } else {
        tf(lang, many, &[("n", &n.to_string())])
    }
}

/// The name of an input kind (an exhaustive match: a new kind needs a name).
pub fn kind_label(kind: InputKind) -> S {
    match kind {
        InputKind::Log => S::KindLog,
        InputKind::RollConfig => S::KindRollConfig,
        InputKind::NpuSmi => S::KindNpuSmi,
        InputKind::HccnTool => S::KindHccnTool,
        InputKind::Ss => S::KindSs,
        InputKind::IpRoute => S::KindIpRoute,
        InputKind::Ulimit => S::KindUlimit,
        InputKind::Env => S::KindEnv,
        InputKind::PipList => S::KindPipList,
        InputKind::RayStatus => S::KindRayStatus,
        InputKind::DockerRun => S::KindDockerRun,
        InputKind::AscendVersion => S::KindAscendVersion,
        InputKind::NodeInfo => S::KindNodeInfo,
        InputKind::ExpectedNodes => S::KindExpectedNodes,
        InputKind::Unrecognised => S::KindUnrecognised,
    }
}

/// The name of a symptom area.
pub fn area_label(a: Area) -> S {
    match a {
        Area::Hccl => S::GrpHccl,
        Area::Ray => S::GrpRay,
        Area::Npu => S::GrpNpu,
        Area::Env => S::GrpEnv,
        Area::Config => S::GrpConfig,
        Area::Perf => S::GrpPerf,
        Area::Other => S::GrpOther,
    }
}

/// The name of what a redacted value was (`ipv4`, `host`, … as the
/// engine's mapping serialises its kind).
pub fn redact_kind_label(code: &str) -> S {
    match code {
        "email" => S::RedactEmail,
        "token" => S::RedactToken,
        "mac" => S::RedactMac,
        "ipv6" => S::RedactIpv6,
        "ipv4" => S::RedactIpv4,
        "host" => S::RedactHost,
        "user" => S::RedactUser,
        _ => S::RedactOther,
    }
}

/// A byte count for people: `812 B`, `14.2 KB`, `10.5 MB` (the units read
/// the same in both languages).
pub fn format_size(bytes: u64) -> String {
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
    !en.trim().is_empty() && !zh.trim().is_empty() && (has_cjk(zh) || en == zh && !has_letters(en))
}

/// Whether `s` holds words that would need translating (ASCII letters
/// outside `{placeholders}` and example addresses).
fn has_letters(s: &str) -> bool {
    let mut depth = 0;
    s.chars().any(|c| {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        depth == 0 && c.is_ascii_alphabetic()
    }) && !s.starts_with("https://")
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

    /// Walks the table itself: every variant, both forms.
    #[test]
    fn every_string_has_english_and_chinese_with_the_same_placeholders() {
        assert!(S::ALL.len() > 150, "the table has {} strings", S::ALL.len());
        for s in S::ALL {
            let (en, zh) = (s.en(), s.zh());
            assert!(is_bilingual(en, zh), "{s:?}: en={en:?} zh={zh:?}");
            assert_eq!(placeholders(en), placeholders(zh), "{s:?}: placeholders differ");
            assert_eq!(t(Lang::En, *s), en);
            assert_eq!(t(Lang::Zh, *s), zh);
            // back-quoted code stays the same code in both languages
            let code = |x: &str| x.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>();
            assert_eq!(code(en), code(zh), "{s:?}: code spans differ");
        }
    }

    #[test]
    fn no_two_strings_are_the_same_english() {
        let mut seen = BTreeSet::new();
        for s in S::ALL {
            // Same text twice is allowed only where it is a deliberate example.
            if *s == S::ShareBasePh {
                continue;
            }
            assert!(seen.insert(s.en()), "{s:?} repeats {:?}", s.en());
        }
    }

    #[test]
    fn every_input_kind_area_and_redaction_kind_has_a_label() {
        let mut names = BTreeSet::new();
        for kind in InputKind::ALL {
            assert!(names.insert(kind_label(kind).en()), "{kind:?} shares a label");
        }
        let mut areas = BTreeSet::new();
        for a in Area::ALL {
            assert!(areas.insert(area_label(a).en()), "{a:?} shares a label");
        }
        for code in ["email", "token", "mac", "ipv6", "ipv4", "host", "user"] {
            assert_ne!(redact_kind_label(code), S::RedactOther, "{code}");
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
        assert_eq!(tf(Lang::En, S::FindingsMany, &[("n", "3")]), "3 findings");
        assert_eq!(tf(Lang::Zh, S::SegLines, &[("a", "1"), ("b", "9")]), "第 1–9 行");
        assert_eq!(count(Lang::En, 1, S::NLine, S::NLines), "1 line");
        assert_eq!(count(Lang::Zh, 4, S::NLine, S::NLines), "4 行");
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
