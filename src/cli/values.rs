//! The parsers of flag values: each turns a flag's text into a typed value by calling the core's
//! own parse function (units, algorithms, cables), so that a bad value is refused with a message
//! naming the problem; clap puts the flag's name in front.

use super::args::{NetworkModel, SpeedupModel, TopologyKind};
use crate::course::chapter::{CHAPTER_SCENARIOS, ChapterScenario, MODELS, ModelPreset};
use crate::sim::faults::{Cable, CableError, MAX_DELAY_SECS, SlowLink, Straggler};
use crate::sim::scenario::MAX_GAMMA;
use crate::sim::units::{Bandwidth, parse_bandwidth, parse_duration, parse_size};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use std::ffi::OsStr;

/// A flag whose value is one of a few names: clap lists them in the help and the completions;
/// `parse` (the core's, where it has one) says what is wrong with any other.
#[derive(Clone)]
pub struct OneOf<T> {
    names: Vec<&'static str>,
    parse: fn(&str) -> Result<T, String>,
}

pub fn one_of<T>(
    names: impl IntoIterator<Item = &'static str>,
    parse: fn(&str) -> Result<T, String>,
) -> OneOf<T> {
    OneOf {
        names: names.into_iter().collect(),
        parse,
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for OneOf<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let flag = arg
            .and_then(|a| a.get_long())
            .map_or(String::new(), |l| format!("--{l}: "));
        let text = value.to_str().ok_or_else(|| {
            let shown = value.to_string_lossy();
            clap::Error::raw(
                ErrorKind::InvalidUtf8,
                format!("{flag}the value '{shown}' is not valid UTF-8 text"),
            )
            .with_cmd(cmd)
        })?;
        // Printable here: clap shows a raw error's first line only (a newline in the value cut
        // the message there).
        (self.parse)(text).map_err(|e| {
            let said = super::printable(&(flag + &e), false);
            clap::Error::raw(ErrorKind::ValueValidation, said).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(PossibleValue::new)))
    }
}

pub fn topology_kind(t: &str) -> Result<TopologyKind, String> {
    match t {
        "uniform" => Ok(TopologyKind::Uniform),
        "cluster" => Ok(TopologyKind::Cluster),
        "rail" => Ok(TopologyKind::Rail),
        other => Err(format!(
            "unknown kind '{other}'; expected uniform, cluster or rail"
        )),
    }
}

pub fn on_off() -> OneOf<bool> {
    one_of(["on", "off"], |t| match t {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("'{other}' is neither on nor off")),
    })
}

pub fn network_model() -> OneOf<NetworkModel> {
    one_of(["ideal", "nccl"], |t| match t {
        "ideal" => Ok(NetworkModel::Ideal),
        "nccl" => Ok(NetworkModel::Nccl),
        other => Err(format!("'{other}' must be ideal or nccl")),
    })
}

pub fn speedup_model() -> OneOf<SpeedupModel> {
    let names = ["ideal", "nccl"]
        .into_iter()
        .chain(MODELS.iter().map(|m| m.id));
    one_of(names, |t| match t {
        "ideal" => Ok(SpeedupModel::Network(NetworkModel::Ideal)),
        "nccl" => Ok(SpeedupModel::Network(NetworkModel::Nccl)),
        other => ModelPreset::find(other)
            .map(SpeedupModel::Training)
            .map_err(|e| format!("{e}; or the network model: ideal or nccl")),
    })
}

pub fn preset(id: &str) -> Result<&'static ChapterScenario, String> {
    CHAPTER_SCENARIOS
        .iter()
        .find(|s| s.id == id)
        .ok_or_else(|| {
            let ids: Vec<_> = CHAPTER_SCENARIOS.iter().map(|s| s.id).collect();
            format!(
                "unknown scenario '{id}'; expected one of: {}",
                ids.join(", ")
            )
        })
}

/// A whole number in 1..=MAX.
pub fn count<const MAX: usize>(t: &str) -> Result<usize, String> {
    whole(t, 1, MAX)
}

/// A whole number in lo..=hi, the message naming that range.
fn whole(t: &str, lo: usize, hi: usize) -> Result<usize, String> {
    let n: i64 = t
        .trim()
        .parse()
        .map_err(|_| format!("'{t}' is not a whole number; expected {lo}..{hi}"))?;
    if n < lo as i64 || n > hi as i64 {
        return Err(format!("{n} is out of range; expected {lo}..{hi}"));
    }
    Ok(n as usize)
}

/// A sweep's step factor: 2..1024 (`-f 0` said "expected 1..1024", then `-f 1` "at least 2").
pub fn step_factor(t: &str) -> Result<usize, String> {
    whole(t, 2, 1024)
}

/// Bytes per gradient: 1, 2, 4 or 8 (the flag said 1..8 and then refused 3).
pub fn gradient_bytes(t: &str) -> Result<usize, String> {
    match t.trim().parse() {
        Ok(n @ (1 | 2 | 4 | 8)) => Ok(n),
        _ => Err(format!("'{t}' is not 1, 2, 4 or 8 (bytes per gradient)")),
    }
}

/// A number in lo..=hi.
pub fn number(t: &str, lo: f64, hi: f64) -> Result<f64, String> {
    let x: f64 = t
        .trim()
        .parse()
        .map_err(|_| format!("'{t}' is not a number; expected {lo}..{hi}"))?;
    if !(x.is_finite() && (lo..=hi).contains(&x)) {
        return Err(format!("{t} is out of range; expected {lo}..{hi}"));
    }
    Ok(x)
}

pub fn gamma(t: &str) -> Result<f64, String> {
    number(t, 0.0, MAX_GAMMA)
}

pub fn oversubscription(t: &str) -> Result<f64, String> {
    number(t, 1.0, 64.0)
}

pub fn share(t: &str) -> Result<f64, String> {
    number(t, 0.0, 1.0)
}

pub fn parameters(t: &str) -> Result<f64, String> {
    number(t, 1.0, 1e13)
}

pub fn size(t: &str) -> Result<u64, String> {
    parse_size(t).map_err(|e| e.to_string())
}

pub fn bandwidth(t: &str) -> Result<Bandwidth, String> {
    parse_bandwidth(t).map_err(|e| e.to_string())
}

pub fn duration(t: &str) -> Result<f64, String> {
    parse_duration(t).map_err(|e| e.to_string())
}

/// A size as nccl-tests writes it (`128M`, `16G`, `1K`: powers of 1024) or as this project does.
pub fn nccl_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let scale = match t.chars().last() {
        Some('K' | 'k') => Some(1u64 << 10),
        Some('M' | 'm') => Some(1 << 20),
        Some('G' | 'g') => Some(1 << 30),
        Some('T' | 't') => Some(1 << 40),
        _ => None,
    };
    if let Some(scale) = scale {
        let num = t[..t.len() - 1].trim();
        if let Ok(v) = num.parse::<u64>() {
            return v
                .checked_mul(scale)
                .ok_or_else(|| format!("size '{text}' is too large"));
        }
        // As nccl-tests reads them, a fraction too (1.5K = 1536 B); a negative one is negative
        // (both were "unknown unit 'K'", a unit the help names).
        if let Ok(v) = num.parse::<f64>()
            && v.is_finite()
        {
            if v < 0.0 {
                return Err(format!("size '{text}' is negative"));
            }
            let bytes = v * scale as f64;
            if bytes > 1e18 {
                return Err(format!("size '{text}' is too large"));
            }
            // Truncated, as nccl-tests' `(size_t)` of its double: 1.9999K is 2047 B.
            return Ok(bytes.trunc() as u64);
        }
    }
    size(t)
}

/// `FROM-TO=FACTOR`. Whether the link exists is checked with the rest of the scenario.
pub fn slow_link(v: &str) -> Result<SlowLink, String> {
    let (cable, factor_text) = v.rsplit_once('=').ok_or_else(|| {
        format!("'{v}' lacks =FACTOR; expected FROM-TO=FACTOR, e.g. node0-rack0=0.25")
    })?;
    let cable: Cable = cable.parse().map_err(|e: CableError| e.to_string())?;
    let factor: f64 = factor_text.trim().parse().map_err(|_| {
        format!("'{factor_text}' is not a number; expected a factor from 0.000001 to 1, e.g. 0.25")
    })?;
    if !crate::sim::faults::factor_in_range(factor) {
        return Err(format!(
            "factor {} is out of range; expected a number from 0.000001 to 1, e.g. 0.25",
            factor_text.trim()
        ));
    }
    Ok(SlowLink { cable, factor })
}

/// `RANK=DELAY`. Whether the rank exists is checked with the rest of the scenario.
pub fn straggler(v: &str) -> Result<Straggler, String> {
    let (rank, delay) = v
        .split_once('=')
        .ok_or_else(|| format!("'{v}' lacks =DELAY; expected RANK=DELAY, e.g. 3=200us"))?;
    let rank: usize = rank
        .trim()
        .parse()
        .map_err(|_| format!("'{rank}' is not a rank number; expected RANK=DELAY, e.g. 3=200us"))?;
    let delay_secs = duration(delay)?;
    if delay_secs > MAX_DELAY_SECS {
        return Err(format!(
            "delay {delay} is out of range; expected 0..{MAX_DELAY_SECS} s"
        ));
    }
    Ok(Straggler { rank, delay_secs })
}
