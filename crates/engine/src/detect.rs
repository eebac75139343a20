//! Stage 2: decide what kind of input each segment is.
//!
//! Each detector scores a segment from 0 to 100; the best score wins when it
//! reaches [`THRESHOLD`], otherwise the segment is [`InputKind::Unrecognised`]
//! (an honest answer: its lines are still scanned for log signatures). The
//! command that printed a segment is the strongest evidence; content patterns
//! decide when there was no prompt.

pub use crate::parse::InputKind;
use crate::parse::PARSERS;
use crate::segment::Segment;
use serde::{Deserialize, Serialize};

/// The lowest score that names a kind.
pub const THRESHOLD: u8 = 50;

/// A segment's kind and how sure we are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detection {
    /// The kind.
    pub kind: InputKind,
    /// 0–100.
    pub confidence: u8,
}

/// Lines a content detector looks at: the head of a segment decides what it
/// is, and scoring a 100 MB log line by line would cost as much as the scan.
pub const SAMPLE_LINES: usize = 400;

/// Detects one segment's kind. Only the head of a segment is scored (see
/// [`SAMPLE_LINES`]); a segment whose lines are not materialised gets a
/// materialised copy of its head.
pub fn detect(seg: &Segment<'_>) -> Detection {
    match sample(seg) {
        Some(head) => score(&head),
        None => score(seg),
    }
}

/// The head a detector reads when it is not `seg` itself: a copy of the
/// first [`SAMPLE_LINES`] lines, materialised (the content scorers read
/// `lines`, which a segment of the pipeline does not fill).
fn sample<'a>(seg: &Segment<'a>) -> Option<Segment<'a>> {
    let n = seg.line_count();
    if seg.lines.len() != n {
        return Some(seg.head(SAMPLE_LINES));
    }
    (n > SAMPLE_LINES)
        .then(|| Segment::of_lines(seg.command.clone(), seg.command_line, seg.lines[..SAMPLE_LINES].to_vec()))
}

/// Whether `seg` holds something of `kind` by that kind's own content scorer,
/// or is YAML where the kind is a config (its first or a later section).
fn has_some_of(kind: InputKind, seg: &Segment<'_>) -> bool {
    content_score(kind, seg) > 0 || (kind == InputKind::RollConfig && crate::parse::roll_config::yaml_shaped(seg))
}

/// How much `kind`'s own content scorer sees of its kind in `seg`, read as [`detect`] reads it.
fn content_score(kind: InputKind, seg: &Segment<'_>) -> u8 {
    let score = crate::parse::parser(kind).score;
    match sample(seg) {
        Some(head) => score(&head),
        None => score(seg),
    }
}

fn score(seg: &Segment<'_>) -> Detection {
    let mut best = Detection { kind: InputKind::Unrecognised, confidence: 0 };
    let command = seg.command.as_deref().map(str::trim);
    for p in PARSERS {
        let by_command = command.map(|c| (p.command)(c)).unwrap_or(0);
        let confidence = by_command.max((p.score)(seg));
        // Strictly greater: on a tie the earlier table entry wins.
        if confidence > best.confidence {
            best = Detection { kind: p.kind, confidence };
        }
    }
    if best.confidence < THRESHOLD {
        Detection { kind: InputKind::Unrecognised, confidence: 100 - best.confidence.min(100) }
    } else {
        best
    }
}

/// Segments up to this many lines are split into blocks by kind (bigger
/// ones are logs, and scoring thousands of blocks would cost too much).
const REFINE_MAX_LINES: usize = 20_000;

/// Detects the kind of `seg`, first splitting a segment that no command
/// named into blank-line-separated blocks when they are of different kinds
/// (a config pasted above a log, an `npu-smi` table below it). Blocks that
/// are weak or unrecognised stay with the block before them when the whole
/// keeps that block's kind, so a YAML config with blank lines between
/// sections stays one segment while prose after a version list does not.
pub fn split_and_detect(seg: Segment<'_>) -> Vec<(Segment<'_>, Detection)> {
    let mut out = Vec::new();
    for (s, d) in split_into_kinds(seg) {
        cut_at_traceback(s, d, &mut out);
    }
    out
}

/// The line that starts every Python traceback.
const TRACEBACK: &str = "Traceback (most recent call last)";

/// Pushes `seg`, cut before its first Python traceback when its kind is not
/// scanned for signatures and is not a config: no package list, environment,
/// `docker run` or version file prints one, so it is the program's output
/// that followed them with no blank line between (vllm-ascend#834: a
/// traceback right below `pip list`'s last row went unread). The part from
/// the traceback on has no command and is detected on its own.
fn cut_at_traceback<'a>(seg: Segment<'a>, d: Detection, out: &mut Vec<(Segment<'a>, Detection)>) {
    let at = if d.kind.scanned_for_signatures() || d.kind == InputKind::RollConfig {
        None
    } else {
        // A segment that starts with its traceback stays whole: nothing is before it.
        let traceback = |r: &crate::segment::Row<'_>| r.text.trim_start().starts_with(TRACEBACK);
        let mut rows = seg.rows();
        match rows.next() {
            Some(first) if !traceback(&first) => rows.find(traceback).map(|r| r.no),
            _ => None,
        }
    };
    let Some(at) = at else {
        out.push((seg, d));
        return;
    };
    let (mut head, mut tail): (Option<Segment<'a>>, Option<Segment<'a>>) = (None, None);
    let mut cut = false;
    for piece in seg.split_where(|l| {
        let starts = !cut && l.trim_start().starts_with(TRACEBACK);
        cut |= starts;
        starts
    }) {
        // (A piece's start_line() is its command's line, which every piece keeps.)
        let first = piece.rows().next().map_or(0, |r| r.no);
        let half = if first < at { &mut head } else { &mut tail };
        match half {
            Some(h) => h.extend(piece),
            None => *half = Some(piece),
        }
    }
    if let Some(h) = head {
        out.push((h, d));
    }
    if let Some(mut t) = tail {
        t.command = None;
        t.command_line = None;
        let td = detect(&t);
        out.push((t, td));
    }
}

/// A segment a command named is of the command's kind. When that kind is
/// not scanned for signatures (and is not a config, whose sections are
/// blank-line separated), a later blank-line block that its own content
/// shows strongly to be of another kind is split off, with the weak blocks
/// after it: the output of what ran next, pasted with no prompt of its own
/// (an `npu-smi` table below `cat …/ascend_toolkit_install.info`).
fn split_off_after_command(seg: Segment<'_>) -> Vec<(Segment<'_>, Detection)> {
    let mut blocks = seg.blocks().into_iter();
    let (Some(mut head), Some(_)) = (blocks.next(), blocks.as_slice().first()) else {
        let d = detect(&seg);
        return vec![(seg, d)];
    };
    // The command names the first block's kind (what follows may outweigh it
    // in the whole: a package list after a version file).
    let d = detect(&head);
    if d.kind.scanned_for_signatures() || d.kind == InputKind::RollConfig {
        let d = detect(&seg);
        return vec![(seg, d)];
    }
    // The third field: whether the detection was made of the part as it now is.
    let mut rest: Vec<(Segment<'_>, Detection, bool)> = Vec::new();
    for mut b in blocks {
        b.command = None;
        b.command_line = None;
        let bd = detect(&b);
        let strong = bd.kind != d.kind && bd.kind != InputKind::Unrecognised && bd.confidence >= 70;
        match rest.last_mut() {
            _ if strong => rest.push((b, bd, true)),
            Some((last, _, fresh)) => {
                last.extend(b);
                *fresh = false;
            }
            None => head.extend(b),
        }
    }
    if rest.is_empty() {
        let d = detect(&seg);
        return vec![(seg, d)];
    }
    let mut out = vec![(head, d)];
    out.extend(rest.into_iter().map(|(s, d, fresh)| {
        let d = if fresh { d } else { detect(&s) };
        (s, d)
    }));
    out
}

/// [`split_and_detect`] before any cut at a traceback.
fn split_into_kinds(seg: Segment<'_>) -> Vec<(Segment<'_>, Detection)> {
    if seg.line_count() > REFINE_MAX_LINES {
        let d = detect(&seg);
        return vec![(seg, d)];
    }
    if seg.command.is_some() {
        return split_off_after_command(seg);
    }
    let node = seg.node.clone();
    // A block read as a `docker run` gives up the text around the command:
    // it is scanned then, as the command is not.
    let mut blocks = Vec::new();
    for b in seg.blocks() {
        let d = detect(&b);
        if d.kind == InputKind::DockerRun {
            let parts = b.split_where(crate::parse::docker_run::command_boundaries());
            blocks.extend(parts.into_iter().map(|p| {
                let d = detect(&p);
                (p, d)
            }));
        } else {
            blocks.push((b, d));
        }
    }
    // The third field says whether the detection was made of the segment as
    // it now is: only segments that took in a block since are detected again
    // at the end (a paste of many blocks costs a detection per block, not two).
    let mut out: Vec<(Segment<'_>, Detection, bool)> = Vec::new();
    for (b, d) in blocks {
        let strong = d.kind != InputKind::Unrecognised && d.confidence >= 70;
        match out.last_mut() {
            Some((prev, pd, fresh)) if pd.kind == d.kind || (pd.kind == InputKind::Unrecognised && !strong) => {
                prev.extend(b);
                *fresh = false;
            }
            // A weak block after a segment of some kind joins it only if the
            // whole is still of that kind: a weak section of a config stays
            // with it; prose after a version list an issue quotes does not
            // (it would dilute the list below its detector's threshold, and
            // the list would go unread). Detection reads only the head, so a
            // segment of SAMPLE_LINES lines or more keeps its kind whatever
            // is added.
            //
            // Into a kind whose lines are not scanned for signatures (a `docker
            // run`, command output) a weak block goes only if that kind's own
            // detector sees something of it there: otherwise the error lines a
            // user pastes after the command they ran would go unscanned
            // (Paddle#72458: `aclInit … failed : 507008` after a `docker run`).
            Some((_, pd, _)) if !strong && !pd.kind.scanned_for_signatures() && !has_some_of(pd.kind, &b) => {
                out.push((b, d, true))
            }
            Some((prev, _, fresh)) if !strong && prev.line_count() >= SAMPLE_LINES => {
                prev.extend(b);
                *fresh = false;
            }
            Some((prev, pd, fresh)) if !strong => {
                let mut joined = prev.clone();
                joined.extend(b.clone());
                let jd = detect(&joined);
                if jd.kind == pd.kind {
                    *prev = joined;
                    *pd = jd;
                    *fresh = true;
                } else {
                    out.push((b, d, true));
                }
            }
            // Unrecognised text before a strong block joins it when the block's
            // lines are scanned for signatures anyway (a log), or its own
            // detector sees something of its kind in it, or it is YAML before a
            // config (its first section); other text stays apart: it may hold the
            // error lines an issue quotes above its `docker run`, and kinds
            // like that one are not scanned for signatures (vllm-ascend#8186).
            Some((prev, pd, fresh))
                if pd.kind == InputKind::Unrecognised
                    && (d.kind.scanned_for_signatures() || has_some_of(d.kind, prev)) =>
            {
                prev.extend(b);
                *pd = d;
                *fresh = false;
            }
            _ => out.push((b, d, true)),
        }
    }
    // Re-detect merged segments: their content changed.
    let mut out: Vec<(Segment<'_>, Detection)> = out
        .into_iter()
        .map(|(mut s, d, fresh)| {
            s.node = node.clone();
            let d = if fresh { d } else { detect(&s) };
            (s, d)
        })
        .collect();
    if out.is_empty() {
        let mut empty = Segment::of_lines(None, None, Vec::new());
        empty.node = node;
        out.push((empty, Detection { kind: InputKind::Unrecognised, confidence: 100 }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::segment;

    fn kind(text: &str) -> InputKind {
        detect(&segment(text)[0]).kind
    }

    #[test]
    fn a_strong_block_after_a_commanded_version_file_is_split_off() {
        // vllm-ascend#834: a version file shown with `cat` (no prompt), then, after a blank
        // line, the package list and the program's output.
        let text = "cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info\npackage_name=Ascend-cann-toolkit\nversion=8.1.RC1.alpha001\ninnerversion=V100R001C21B071\n\nPackage                                  Version\n---------------------------------------- -------------\ntorch                                    2.5.1\ntorch-npu                                2.5.1\nvllm                                     0.8.5.post1\nvllm_ascend                              0.7.3\n\nsee above\n";
        // Typed without a prompt or after one, the command names only the first block.
        for text in [text.to_string(), format!("[root@node-1 ~]# {text}")] {
            let parts: Vec<(InputKind, u32)> = crate::segment::segments(&text)
                .flat_map(split_and_detect)
                .map(|(s, d)| (d.kind, s.rows().next().map_or(0, |r| r.no)))
                .collect();
            assert_eq!(parts, vec![(InputKind::AscendVersion, 2), (InputKind::PipList, 6)], "{text}");
        }
        // A commanded block of a scanned kind, or one with nothing strong after it, stays whole.
        let one = "$ cat /etc/os-release\nNAME=x\n\nsome note\n";
        assert_eq!(crate::segment::segments(one).flat_map(split_and_detect).count(), 1);
    }

    #[test]
    fn a_traceback_below_a_package_list_is_cut_off_and_scanned() {
        // vllm-ascend#834: no blank line between `pip list`'s last row and the program's output.
        let text = "Package    Version\n---------- -------\ntorch      2.5.1\ntorch-npu  2.5.1\nvllm       0.8.5\nvllm_ascend 0.7.3\nINFO 05-13 19:24:04 [__init__.py:230] Platform plugin ascend is activated\nTraceback (most recent call last):\n  File \"demo.py\", line 1, in <module>\nImportError: cannot import name 'CompilationLevel'\n";
        let parts: Vec<(InputKind, u32, u32)> = crate::segment::segments(text)
            .flat_map(split_and_detect)
            .map(|(s, d)| (d.kind, s.start_line(), s.end_line()))
            .collect();
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!((parts[0].0, parts[0].1, parts[0].2), (InputKind::PipList, 1, 7));
        assert!(parts[1].0.scanned_for_signatures() && parts[1].1 == 8 && parts[1].2 == 10, "{parts:?}");
        // A log keeps its tracebacks; a config is not cut.
        let log = "INFO start\nTraceback (most recent call last):\n  File \"x.py\", line 1\nValueError: x\n";
        assert_eq!(crate::segment::segments(log).flat_map(split_and_detect).count(), 1);
    }

    #[test]
    fn npu_smi_board_output_is_recognised_without_its_command() {
        // As pasted in triton-ascend#1002 (indented, no `$ npu-smi` line).
        let t = "        NPU ID                         : 1\n        Chip ID                        : 0\n        Chip Type                      : Ascend\n        Chip Name                      : 310P3\n";
        assert_eq!(kind(t), InputKind::NpuSmi);
        // `Chip Name` alone, in a log, is not the query's output.
        assert_ne!(kind("INFO Chip Name: 310P3 loaded\n"), InputKind::NpuSmi);
    }

    #[test]
    fn command_names_the_kind() {
        assert_eq!(kind("$ ulimit -n\n1024\n"), InputKind::Ulimit);
        assert_eq!(
            kind("$ for i in {0..7}; do hccn_tool -i $i -link -g; done\nlink status: UP\n"),
            InputKind::HccnTool
        );
    }

    #[test]
    fn config_without_prompt() {
        let t = "actor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,8))\n";
        assert_eq!(kind(t), InputKind::RollConfig);
    }

    #[test]
    fn config_then_log_is_split_but_config_sections_are_not() {
        let t = "hydra:\n  run:\n    dir: .\n\nexp_name: x\nrollout_batch_size: 64\n\nactor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,8))\n\n[ERROR] HCCL(1,python): boom\nEI0006: Getting socket times out.\n";
        let seg = segment(t).remove(0);
        let parts = split_and_detect(seg);
        let kinds: Vec<InputKind> = parts.iter().map(|(_, d)| d.kind).collect();
        assert_eq!(kinds, vec![InputKind::RollConfig, InputKind::Log]);
        assert_eq!(parts[0].0.lines[0].no, 1);
        assert_eq!(parts[1].0.lines[0].no, 13);
    }

    #[test]
    fn error_lines_after_a_docker_run_are_scanned() {
        // Paddle#72458: the command, a blank line, then what it printed.
        let t = "docker run -itd --name x \\\n    --privileged \\\n    -v /usr/local/Ascend/driver:/usr/local/Ascend/driver \\\n    img:latest \\\nbash\n\npython -c \"import paddle_custom_device\nI0411 10:12:08.927596 650 init.cc:146] Try loading custom device libs\nCall aclInit(nullptr) failed : 507008 at file runtime.cc line 403\n";
        let parts = split_and_detect(segment(t).remove(0));
        let kinds: Vec<InputKind> = parts.iter().map(|(_, d)| d.kind).collect();
        assert_eq!(kinds[0], InputKind::DockerRun);
        assert!(kinds[1..].iter().all(|k| k.scanned_for_signatures()), "{kinds:?}");
        assert_eq!(parts[1].0.lines[0].no, 7);
    }

    #[test]
    fn the_text_around_a_docker_run_in_one_block_is_scanned() {
        // A sentence naming the image, the command, then what it printed,
        // with no blank line between (hiascend forum thread 0211205488976129953).
        let t = "我使用的镜像是vllm-ascend v0.14.0rc1-310p的arm64版本,启动docker的指令是:\ndocker run -it -d --net=host \\\n--device /dev/davinci4 \\\n-v /usr/local/Ascend/driver:/usr/local/Ascend/driver:ro \\\nimg bash\ndocker: Error response from daemon: x.\nLoading safetensors checkpoint shards: 0% Completed\nRuntimeError: boom\n";
        let parts = split_and_detect(segment(t).remove(0));
        let got: Vec<(InputKind, u32)> = parts.iter().map(|(s, d)| (d.kind, s.lines[0].no)).collect();
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[1], (InputKind::DockerRun, 2));
        // Docker's own error line stays with the command; the rest is apart and scanned.
        assert_eq!(parts[1].0.lines.len(), 5);
        assert!(got[0].0.scanned_for_signatures() && got[2].0.scanned_for_signatures(), "{got:?}");
        assert_eq!(got[2].1, 7);
    }

    #[test]
    fn prose_around_a_version_list_stays_apart_from_it() {
        // sglang#28628: an issue body quotes the versions between paragraphs;
        // joined with them the list would fall below its detector's threshold.
        let t = "The container has an incompatible PyTorch / torch_npu combination:\n\n- `torch`: `2.12.0`\n- `torch_npu`: `2.8.0.post2`\n\nImporting `torch` triggers backend auto-loading.\n";
        let parts = split_and_detect(segment(t).remove(0));
        let kinds: Vec<InputKind> = parts.iter().map(|(_, d)| d.kind).collect();
        // The paragraph after it holds nothing of a version list: it stays
        // apart too, and is scanned as text (a version list is not).
        assert_eq!(kinds, vec![InputKind::Unrecognised, InputKind::PipList, InputKind::Unrecognised]);
        assert_eq!(parts[1].0.lines[0].no, 3);
        // A Markdown heading right above the list takes nothing from it.
        let parts = split_and_detect(segment("## 第一种版本\ntorch  2.3.1\ntorch-npu  2.2.0\n").remove(0));
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].1.kind, InputKind::PipList);
    }

    #[test]
    fn lazy_and_materialised_segments_split_alike() {
        // The pipeline reads segments without materialising their lines; text
        // before a config that names a ROLL key joins it there as well.
        let t = "exp_name: from my run\nthe log follows the config\nit failed\n\nactor_train:\n  strategy_args:\n    strategy_name: fsdp2_train\n  device_mapping: list(range(0,8))\n";
        let kinds = |seg| {
            split_and_detect(seg).iter().map(|(s, d)| (s.rows().next().map(|r| r.no), d.kind)).collect::<Vec<_>>()
        };
        let lazy = kinds(crate::segment::segments(t).next().unwrap());
        assert_eq!(lazy, kinds(segment(t).remove(0)));
        assert_eq!(lazy.len(), 1, "{lazy:?}");
    }

    #[test]
    fn system_envs_block_is_not_a_log() {
        let t = "system_envs:\n  HCCL_CONNECT_TIMEOUT: 3600\n  HCCL_EXEC_TIMEOUT: \"3600\"\n  HCCL_NPU_SOCKET_PORT_RANGE: auto\n";
        assert_ne!(kind(t), InputKind::Log);
        let full =
            format!("exp_name: x\nrollout_batch_size: 64\n\n{t}\nactor_train:\n  device_mapping: list(range(0,8))\n");
        let parts = split_and_detect(segment(&full).remove(0));
        assert_eq!(parts.len(), 1, "{:?}", parts.iter().map(|p| p.1).collect::<Vec<_>>());
        assert_eq!(parts[0].1.kind, InputKind::RollConfig);
    }

    #[test]
    fn log_and_unrecognised() {
        assert_eq!(kind("[ERROR] HCCL(123,python):2025 boom\n"), InputKind::Log);
        assert_eq!(kind("hello there\n"), InputKind::Unrecognised);
    }
}
