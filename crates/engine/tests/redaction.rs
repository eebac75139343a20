//! Redaction proven on share links: no IPv4/IPv6 address, host name, user
//! name (also in prompts and home paths, also inside longer words), e-mail,
//! MAC, token or key from the input survives into a link; equal originals
//! get equal placeholders; host names learned from prompts, `/etc/hosts`
//! lines, `hostname` output, node markers and node labels are replaced
//! wherever they occur; the mapping (the page's preview) lists every
//! replacement.

use proptest::prelude::*;
use roll_doctor_engine::redact::{Kind, Redactor};
use roll_doctor_engine::share::{self, Payload};
use roll_doctor_engine::{Input, Lang, Session};

/// Every text a payload carries that came from the user.
fn shared_texts(p: &Payload) -> Vec<String> {
    let mut out = p.nodes.clone();
    for f in &p.facts {
        out.push(f.text.clone());
        out.extend(f.subject.clone());
        if let Some(s) = f.value.as_str() {
            out.push(s.to_string());
        }
    }
    for e in &p.excerpts {
        out.push(e.text.clone());
        out.extend(e.node.clone());
    }
    out
}

fn share(inputs: &[Input]) -> (Payload, Vec<roll_doctor_engine::redact::Mapping>, String) {
    let (p, mapping) = share::build(inputs, &Session::default(), Lang::En, true);
    // What really leaves: the link, decoded again.
    let back = share::decode(&share::encode(&p)).expect("our link decodes");
    let texts = shared_texts(&back).join("\n");
    (back, mapping, texts)
}

fn input(text: &str) -> Input {
    Input { text: text.into(), ..Input::default() }
}

const TIMEOUT: &str = "EI0006: [PID: 1] Getting socket times out.";

#[test]
fn bare_host_names_learned_from_a_prompt_are_replaced() {
    let text = format!(
        "[jdoe@ascend-node-17 ~]$ tail plog.log\n{TIMEOUT} peer ascend-node-17 from ascend-node-9\n\
         [root@ascend-node-9 ~]# echo ok\nok\n"
    );
    let (p, mapping, texts) = share(&[input(&text)]);
    assert_eq!(p.findings, ["hccl-connect-timeout"]);
    assert!(!texts.contains("ascend-node-17") && !texts.contains("ascend-node-9"), "{texts}");
    assert!(mapping.iter().any(|m| m.original == "ascend-node-17" && m.kind == Kind::Host));
    assert!(mapping.iter().any(|m| m.original == "ascend-node-9" && m.kind == Kind::Host));
}

#[test]
fn etc_hosts_hostname_output_node_markers_and_labels_teach_host_names() {
    let text = format!(
        "===== roll-doctor node: gpu-a17 =====\n===== roll-doctor: hostname =====\ngpu-a17\n\
         ===== roll-doctor: cat /etc/hosts =====\n127.0.0.1 localhost\n10.9.0.18 train-b18 train-b18.hpc.example\n\
         $ hostname -f\nsolo-c3\n===== roll-doctor: tail plog =====\n\
         {TIMEOUT} peers gpu-a17, train-b18 and solo-c3 and labelled-d4\n"
    );
    let inputs = [Input { text, node: Some("labelled-d4".into()), ..Input::default() }];
    let (p, mapping, texts) = share(&inputs);
    assert!(p.findings.contains(&"hccl-connect-timeout".to_string()), "{:?}", p.findings);
    for name in ["gpu-a17", "train-b18", "solo-c3", "labelled-d4"] {
        assert!(!texts.contains(name), "{name} survived in {texts}");
        assert!(mapping.iter().any(|m| m.original == name), "{name} is not in the preview");
    }
    assert!(texts.contains("localhost") || !texts.contains("127.0.0.1"), "{texts}");
}

#[test]
fn user_names_are_replaced_inside_longer_words() {
    let text = format!(
        "(roll) wzhang@box-7:~$ ls /home/wzhang\nckpt\n\
         {TIMEOUT} saving to /mnt/wzhang_exp3/ckpt-wzhang-v2 by WZHANG? no: by wzhang.\n"
    );
    let (_, mapping, texts) = share(&[input(&text)]);
    assert!(!texts.contains("wzhang"), "{texts}");
    let m = mapping.iter().find(|m| m.original == "wzhang").expect("in the preview");
    assert!(texts.contains(&format!("{}_exp3", m.placeholder)), "{texts}");
}

#[test]
fn the_preview_lists_every_replacement() {
    let text = format!(
        "[jdoe@node-a1 ~]# x\n{TIMEOUT} 10.0.0.1 fd12:3456::9 jdoe@corp.example.com 3c:fd:fe:12:34:56 \
         hf_abcdefghijklmnopqrstu token=abcdefghijklmnop12 node-a1 /home/jdoe\n"
    );
    let mut r = Redactor::for_texts(&[text.as_str()]);
    let out = r.redact(&text);
    let mapping = r.mapping();
    // Undoing every replacement the mapping lists gives the original back.
    let mut undone = out.clone();
    let mut by_len = mapping.clone();
    by_len.sort_by_key(|m| std::cmp::Reverse(m.placeholder.len()));
    for m in &by_len {
        undone = undone.replace(&m.placeholder, &m.original);
    }
    assert_eq!(undone, text, "the mapping misses a replacement: {out}");
    for want in ["10.0.0.1", "fd12:3456::9", "jdoe@corp.example.com", "3c:fd:fe:12:34:56", "node-a1", "jdoe"] {
        assert!(mapping.iter().any(|m| m.original == want), "{want}: {mapping:?}");
    }
}

// ---- the property --------------------------------------------------------------------

/// Everything a placeholder or the fixed text of a line may contain: a
/// generated name inside one of these would be a false alarm.
const VOCABULARY: &str = "user-host-example.com redacted hf_ sk- 2001:db8:: ei0006 pid getting socket times out \
                          peer from dir ckpt mail mac ip6 token authorization bearer ls home tail cat etc hosts \
                          hostname roll-doctor node cluster exp3 v2 log";

fn name(re: &'static str) -> impl Strategy<Value = String> {
    re.prop_filter("not a word of the fixed text", |s| !VOCABULARY.contains(s.to_lowercase().as_str()))
}

#[derive(Clone, Debug)]
struct Secrets {
    users: Vec<String>,
    hosts: Vec<String>,
    ipv4: Vec<String>,
    ipv6: String,
    email: String,
    mac: String,
    token: String,
    bearer: String,
}

fn secrets() -> impl Strategy<Value = Secrets> {
    let ipv4 = (1u8..=223, any::<u8>(), any::<u8>(), 1u8..=254)
        .prop_filter("not loopback", |(a, ..)| *a != 127)
        .prop_map(|(a, b, c, d)| format!("{a}.{b}.{c}.{d}"));
    (
        proptest::collection::vec(name("[a-z][a-z0-9]{3,9}"), 2),
        proptest::collection::vec(name("[a-z]{2,6}-(node|npu|gpu|worker)-[0-9]{1,3}|[a-z]{4,8}[0-9]{1,2}"), 3),
        proptest::collection::vec(ipv4, 3),
        "fd[0-9a-f]{2}:[0-9a-f]{1,4}:[0-9a-f]{1,4}::[1-9a-f][0-9a-f]{0,3}",
        "[a-z]{3,8}\\.[a-z]{2,6}@[a-z]{3,8}\\.(com|cn|org)",
        "[0-9a-f]{2}(:[0-9a-f]{2}){5}",
        prop_oneof![
            "hf_[A-Za-z0-9]{20,30}",
            "sk-[A-Za-z0-9]{24}",
            "ghp_[A-Za-z0-9]{36}",
            "AKIA[0-9A-Z]{16}",
            "xoxb-[0-9]{10,12}-[A-Za-z0-9]{10}"
        ],
        "[A-Za-z0-9]{20,40}",
    )
        .prop_filter("distinct names", |(u, h, ip, ..)| {
            let all: Vec<&String> = u.iter().chain(h).chain(ip).collect();
            all.iter()
                .enumerate()
                .all(|(i, a)| all.iter().skip(i + 1).all(|b| !a.contains(b.as_str()) && !b.contains(a.as_str())))
        })
        .prop_map(|(users, hosts, ipv4, ipv6, email, mac, token, bearer)| Secrets {
            users,
            hosts,
            ipv4,
            ipv6,
            email,
            mac,
            token,
            bearer,
        })
}

/// A two-node transcript that reveals every secret the ways users paste
/// them, with timeout lines (evidence, so excerpts) that repeat them.
fn transcript(s: &Secrets, order: &[usize]) -> Vec<Input> {
    let (u0, u1) = (&s.users[0], &s.users[1]);
    let (h0, h1, h2) = (&s.hosts[0], &s.hosts[1], &s.hosts[2]);
    let values = [
        format!("peer {}", s.ipv4[0]),
        format!("from {h0}"),
        format!("to {h1}:6379"),
        format!("dir /data/{u0}_exp3"),
        format!("ckpt-{u1}-v2"),
        format!("mail {}", s.email),
        format!("mac {}", s.mac),
        format!("ip6 [{}]:29500", s.ipv6),
        format!("token {}", s.token),
        format!("Authorization: Bearer {}", s.bearer),
        format!("{u0}@{}", s.ipv4[1]),
        format!("({h2})"),
        format!("via {}", s.ipv4[2]),
    ];
    let line = |k: usize| {
        let parts: Vec<&str> = order.iter().map(|&i| values[(i + k) % values.len()].as_str()).collect();
        format!("{TIMEOUT} {}", parts.join(" "))
    };
    let a = format!(
        "===== roll-doctor node: {h0} =====\n[{u0}@{h0} ~]# hostname\n{h0}\n[{u0}@{h0} ~]# cat /etc/hosts\n\
         {} {h1} {h1}.cluster\n{} {h2}\n[{u0}@{h0} ~]# ls /home/{u1}\nckpt\n{}\n{}\n",
        s.ipv4[1],
        s.ipv4[2],
        line(0),
        line(3)
    );
    let b = format!("{u1}@{h1}:~$ tail -n 2 plog\n{}\n{}\n", line(5), line(0));
    vec![Input { text: a, ..Input::default() }, Input { text: b, node: Some(h2.clone()), ..Input::default() }]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn nothing_identifying_survives_into_a_link(
        s in secrets(),
        order in Just((0..13).collect::<Vec<usize>>()).prop_shuffle(),
    ) {
        let inputs = transcript(&s, &order);
        let (p, mapping, texts) = share(&inputs);
        prop_assert!(p.findings.contains(&"hccl-connect-timeout".to_string()), "{:?}", p.findings);
        prop_assert!(!p.excerpts.is_empty());
        let mut originals: Vec<&String> = s.users.iter().chain(&s.hosts).chain(&s.ipv4).collect();
        originals.extend([&s.ipv6, &s.email, &s.mac, &s.token, &s.bearer]);
        for o in &originals {
            prop_assert!(!texts.contains(o.as_str()), "{o} survived in {texts}");
            prop_assert!(mapping.iter().any(|m| &m.original == *o), "{o} is missing from the preview {mapping:?}");
        }
        // One placeholder per original and one original per placeholder.
        for (i, a) in mapping.iter().enumerate() {
            for b in &mapping[i + 1..] {
                prop_assert!(a.placeholder != b.placeholder, "{a:?} and {b:?} share a placeholder");
                prop_assert!(a.original != b.original || a.kind != b.kind, "{a:?} mapped twice");
            }
        }
        // Equal originals, equal placeholders: every excerpt whose original line held a
        // value shows that value's placeholder.
        for e in &p.excerpts {
            let input = &inputs[e.input.unwrap_or(0)];
            let original = input.text.split('\n').nth(e.line as usize - 1).unwrap_or("");
            for m in &mapping {
                if original.contains(&m.original) && originals.iter().any(|o| **o == m.original) {
                    prop_assert!(e.text.contains(&m.placeholder), "{} lacks {} for {}: {}", e.line, m.placeholder, m.original, e.text);
                }
            }
        }
        // The link is stable: the same inputs give the same link.
        let (p2, _) = share::build(&inputs, &Session::default(), Lang::En, true);
        prop_assert_eq!(share::encode(&p), share::encode(&p2));
    }

    /// A placeholder never spells a value the paste holds elsewhere, in text that
    /// is not shared: the link must not show `192.0.2.2` for one address while
    /// the paste holds `192.0.2.2` itself (found by the pipeline fuzz target).
    #[test]
    fn placeholders_never_spell_a_value_of_the_unshared_text(
        shared_ips in proptest::collection::vec((1u8..=254, 1u8..=254), 1..6),
        taken in proptest::collection::vec(1u32..=8, 1..6),
        form in 0usize..4,
    ) {
        let shared: String = shared_ips.iter().map(|(a, b)| format!("ipaddr:10.0.{a}.{b}\n")).collect();
        let shape = |n: u32| match form {
            0 => format!("192.0.2.{n}"),
            1 => format!("host-{n}"),
            2 => format!("user-{n}"),
            _ => format!("REDACTED-{n}"),
        };
        let unshared: Vec<String> = taken.iter().map(|&n| shape(n)).collect();
        let mut r = Redactor::for_texts(&[shared.as_str()]);
        r.learn(&format!("[root@gpu-n1 ~]# cat notes\nseen {}\n", unshared.join(" and ")));
        let out = format!("{} [root@gpu-n1 ~]# x jdoe@corp.example.com token hf_abcdefghijklmnopqrstu", r.redact(&shared));
        let out = r.redact(&out);
        for v in &unshared {
            let token = out.match_indices(v.as_str()).any(|(i, _)| {
                let before = out[..i].chars().next_back();
                let after = out[i + v.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
            });
            prop_assert!(!token, "{v} of the unshared text appears in {out}");
        }
    }

    /// Learned names are replaced wherever they occur in any text, whatever surrounds them.
    #[test]
    fn learned_names_are_replaced_in_any_context(
        user in name("[a-z][a-z0-9]{3,9}"),
        host in name("[a-z]{2,6}-node-[0-9]{1,3}"),
        pre in "[ a-zA-Z_/.:=(\\[-]{0,6}",
        post in "[ a-zA-Z_/.:=)\\],-]{0,6}",
    ) {
        prop_assume!(!user.contains(&host) && !host.contains(&user));
        let teach = format!("[{user}@{host} ~]$ ls");
        let other = format!("{pre}{user}{post} x {pre} {host} {post}");
        let mut r = Redactor::for_texts(&[teach.as_str(), other.as_str()]);
        let out = r.redact(&other);
        prop_assert!(!out.contains(&user), "{out}");
        prop_assert!(!out.contains(&host), "{out}");
    }
}
