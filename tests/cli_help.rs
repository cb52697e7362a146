//! What the command line says about itself: help, "did you mean" for a misspelling, and shell
//! completion scripts whose values come from the data (algorithms, chapter presets, systems).
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::nccl::system::PRESETS;
use std::process::Command;

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_allreduce-lab"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const COMMANDS: [&str; 6] = [
    "simulate",
    "sweep",
    "speedup",
    "nccl-tests",
    "calibrate",
    "completions",
];

#[test]
fn completions_bash_prints_a_script_naming_every_command_and_the_datas_values() {
    let (code, out, err) = cli(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("complete -F"), "not a bash completion script");
    for c in COMMANDS {
        assert!(out.contains(c), "lacks the command {c}");
    }
    for flag in ["--ranks", "--slow-link", "--min-size", "--measured"] {
        assert!(out.contains(flag), "lacks {flag}");
    }
    // The values a flag may take are the data's own lists, not a second copy.
    for id in CHAPTER_SCENARIOS.iter().map(|s| s.id) {
        assert!(out.contains(id), "lacks the preset {id}");
    }
    for a in Algorithm::ALL {
        assert!(out.contains(a.name()), "lacks the algorithm {}", a.name());
    }
    for s in PRESETS {
        assert!(out.contains(s), "lacks the system {s}");
    }
}

#[test]
fn completions_for_zsh_and_fish_too_and_an_unknown_shell_is_one_line_and_exit_2() {
    for shell in ["zsh", "fish"] {
        let (code, out, err) = cli(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for c in COMMANDS {
            assert!(out.contains(c), "{shell} lacks {c}");
        }
    }
    let (code, out, err) = cli(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("tcsh") && err.contains("bash"), "{err}");
}

#[test]
fn a_misspelt_flag_or_command_gets_did_you_mean_and_exit_2() {
    for (args, needle) in [
        (
            &["simulate", "--rnaks", "4"][..],
            "unknown flag '--rnaks'; did you mean '--ranks'?",
        ),
        (
            &["nccl-tests", "--sytem", "dgx-h100"][..],
            "did you mean '--system'?",
        ),
        (&["sweep", "--step-factr", "4"][..], "'--step-factor'"),
        (
            &["simualte", "--ranks", "4"][..],
            "did you mean 'simulate'?",
        ),
    ] {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    }
}

#[test]
fn help_lists_the_commands_and_each_commands_flags_with_their_defaults() {
    for args in [&[][..], &["help"], &["--help"]] {
        let (code, out, _) = cli(args);
        assert_eq!(code, 0, "{args:?}");
        for c in COMMANDS {
            assert!(out.contains(c), "{args:?}: lacks {c}");
        }
    }
    let (code, out, _) = cli(&["simulate", "--help"]);
    assert_eq!(code, 0);
    for (flag, default) in [
        ("--ranks", "[default: 8]"),
        ("--bandwidth", "[default: 100GB/s]"),
        ("--size", "[default: 1GiB]"),
        ("--pxn", "[default: on]"),
    ] {
        let line = out.lines().find(|l| l.contains(flag)).unwrap_or("");
        assert!(line.contains(default), "{flag}: '{line}'");
    }
    let (code, out, _) = cli(&["nccl-tests", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("-b, --min-size"), "{out}");
}

/// What bash offers for the words typed so far (the last one being completed), by running the
/// script as bash's completion would.
fn bash_complete(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let words_q: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let n = words.len() - 1;
    let (cur, prev) = (words[n], words[n - 1]);
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={n}; _allreduce__lab allreduce-lab '{cur}' '{prev}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words_q.join(" ")
    );
    let out = Command::new("bash")
        .args(["-c", &program])
        .output()
        .expect("bash runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_bash_script_completes_subcommands_flags_and_values() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("no bash here; nothing to test");
        return;
    }
    let (_, script, _) = cli(&["completions", "bash"]);
    let dir = std::env::temp_dir().join(format!("allreduce-lab-compl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("allreduce-lab.bash");
    std::fs::write(&path, script).unwrap();
    assert_eq!(
        bash_complete(&path, &["allreduce-lab", "sim"]),
        ["simulate"]
    );
    assert_eq!(
        bash_complete(&path, &["allreduce-lab", "simulate", "--topo"]),
        ["--topology"]
    );
    let presets: Vec<String> = CHAPTER_SCENARIOS.iter().map(|s| s.id.to_string()).collect();
    assert_eq!(
        bash_complete(&path, &["allreduce-lab", "speedup", "--preset", ""]),
        presets
    );
    assert_eq!(
        bash_complete(&path, &["allreduce-lab", "nccl-tests", "--system", "dgx-h"]),
        ["dgx-h100", "dgx-h200"]
    );
}
