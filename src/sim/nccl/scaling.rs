//! Data-parallel speedup with the "like NCCL" model: each GPU count's gradient allreduce is what
//! [`predict_fast`] says NCCL does on that many GPUs of a named system, instead of a textbook run.
//!
//! The system is filled as the textbook charts fill a cluster: up to one node's GPUs on one node
//! (2..G GPUs of it), then whole nodes (G GPUs each). The step model is the same
//! ([`TrainingModel::step`]); only the allreduce time comes from the nccl model.
//!
//! ```
//! use allreduce_sim::nccl::scaling::{nccl_scaling, system_for_gpus};
//! use allreduce_sim::nccl::model::predict_fast;
//! use allreduce_sim::training::TrainingModel;
//! let model = TrainingModel { parameters: 340_000_000, bytes_per_gradient: 4, compute_secs: 0.3,
//!     backward_share: 2.0 / 3.0, overlap: 0.0, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
//! let rows = nccl_scaling(&model, "dgx-h100", 8, true, &[1, 8, 16]).unwrap();
//! assert_eq!(rows[0].step.speedup, 1.0);
//! // 16 GPUs are 2 nodes × 8; the allreduce is NCCL's choice there.
//! let two = system_for_gpus("dgx-h100", 8, 16).unwrap().unwrap();
//! assert_eq!((two.nodes, two.gpus_per_node), (2, 8));
//! let c = predict_fast(&two, model.gradient_bytes(), true).unwrap();
//! assert_eq!(rows[2].step.comm_secs, c.time_secs);
//! assert_eq!(rows[2].choice.as_ref().unwrap().algorithm, c.algorithm);
//! ```

use super::model::{Choice, predict_fast};
use super::system::{MAX_NODES, System, SystemError};
use crate::training::{StepBreakdown, TrainingModel};
use serde::Serialize;

/// The most GPUs a speedup point of the nccl model may have: beyond, one prediction simulates
/// millions of transfers (a ring over every rank).
pub const MAX_SCALING_GPUS: usize = 1024;

/// One GPU count's step and, on more than one GPU, NCCL's choice for its allreduce.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NcclStep {
    pub step: StepBreakdown,
    pub choice: Option<Choice>,
}

/// The system `id` with `gpus` GPUs: one node of `gpus` GPUs up to `gpus_per_node`, then
/// `gpus / gpus_per_node` whole nodes. `Ok(None)` for one GPU (no allreduce) and for counts that
/// do not fill whole nodes or exceed [`MAX_NODES`] nodes; an error for an unknown system or a
/// node size out of range.
///
/// ```
/// use allreduce_sim::nccl::scaling::system_for_gpus;
/// assert_eq!(system_for_gpus("dgx-a100", 8, 4).unwrap().unwrap().gpus_per_node, 4);
/// assert!(system_for_gpus("dgx-a100", 8, 1).unwrap().is_none());
/// assert!(system_for_gpus("dgx-a100", 8, 12).unwrap().is_none()); // not whole nodes
/// assert!(system_for_gpus("cray-1", 8, 8).is_err());
/// ```
pub fn system_for_gpus(
    id: &str,
    gpus_per_node: usize,
    gpus: usize,
) -> Result<Option<System>, SystemError> {
    // Checks the id and the node size even where the count needs no system.
    System::preset(id, 1, gpus_per_node)?;
    let (nodes, per_node) = if gpus <= gpus_per_node {
        (1, gpus)
    } else if gpus % gpus_per_node == 0 {
        (gpus / gpus_per_node, gpus_per_node)
    } else {
        return Ok(None);
    };
    if gpus < 2 || nodes > MAX_NODES {
        return Ok(None);
    }
    System::preset(id, nodes, per_node).map(Some)
}

/// The step on `gpus` GPUs of `system` (already sized, see [`system_for_gpus`]), its allreduce
/// being NCCL's choice for the model's gradient.
///
/// ```
/// use allreduce_sim::nccl::{scaling::*, model::predict_fast};
/// use allreduce_sim::training::TrainingModel;
/// let model = TrainingModel { parameters: 1_000_000, bytes_per_gradient: 4, compute_secs: 0.1,
///     backward_share: 2.0 / 3.0, overlap: 0.0, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
/// let one = nccl_step(&model, None, 1, true).unwrap();
/// assert!(one.choice.is_none() && one.step.comm_secs == 0.0);
/// let sys = system_for_gpus("dgx-h100", 8, 8).unwrap().unwrap();
/// let eight = nccl_step(&model, Some(&sys), 8, true).unwrap();
/// assert_eq!(eight.step.comm_secs, predict_fast(&sys, 4_000_000, true).unwrap().time_secs);
/// ```
pub fn nccl_step(
    model: &TrainingModel,
    system: Option<&System>,
    gpus: usize,
    nvls: bool,
) -> Result<NcclStep, SystemError> {
    match system {
        Some(sys) if gpus > 1 => {
            let c = predict_fast(sys, model.gradient_bytes().max(1), nvls)?;
            Ok(NcclStep {
                step: model.step(gpus, c.time_secs),
                choice: Some(c),
            })
        }
        _ => Ok(NcclStep {
            step: model.step(gpus, 0.0),
            choice: None,
        }),
    }
}

/// Speedup and step breakdown for each count in `counts` that the system can take (see
/// [`system_for_gpus`]; others are left out), on the system `id` with `gpus_per_node` GPUs per
/// node. Every count is checked before any is predicted.
///
/// ```
/// use allreduce_sim::nccl::scaling::nccl_scaling;
/// use allreduce_sim::training::TrainingModel;
/// let model = TrainingModel { parameters: 1_000_000, bytes_per_gradient: 4, compute_secs: 0.1,
///     backward_share: 2.0 / 3.0, overlap: 0.0, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
/// // 12 GPUs do not fill 8-GPU nodes: left out.
/// let rows = nccl_scaling(&model, "dgx-h100", 8, true, &[1, 4, 12, 16]).unwrap();
/// assert_eq!(rows.len(), 3);
/// assert!(rows[0].choice.is_none() && rows[1..].iter().all(|r| r.choice.is_some()));
/// assert!(nccl_scaling(&model, "dgx-h100", 8, true, &[2048]).is_err());
/// ```
pub fn nccl_scaling(
    model: &TrainingModel,
    id: &str,
    gpus_per_node: usize,
    nvls: bool,
    counts: &[usize],
) -> Result<Vec<NcclStep>, SystemError> {
    model.validate()?;
    if let Some(&n) = counts.iter().find(|&&n| n > MAX_SCALING_GPUS) {
        return Err(SystemError::TooManyGpusForScaling {
            got: n,
            max: MAX_SCALING_GPUS,
        });
    }
    let systems: Vec<(usize, Option<System>)> = counts
        .iter()
        .map(|&n| Ok((n, system_for_gpus(id, gpus_per_node, n)?)))
        .collect::<Result<_, SystemError>>()?;
    systems
        .into_iter()
        .filter(|(n, s)| *n == 1 || s.is_some())
        .map(|(n, s)| nccl_step(model, s.as_ref(), n, nvls))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bert() -> TrainingModel {
        TrainingModel {
            input_bytes_per_gpu: 0.0,
            storage_bytes_per_sec: 1e12,
            ..crate::fixtures::bert()
        }
    }

    #[test]
    fn each_point_is_the_step_of_the_predicted_allreduce() {
        let m = bert();
        let rows = nccl_scaling(&m, "dgx-a100", 8, true, &[1, 2, 4, 8, 16, 32]).unwrap();
        assert_eq!(
            rows.iter().map(|r| r.step.gpus).collect::<Vec<_>>(),
            vec![1, 2, 4, 8, 16, 32]
        );
        assert!(rows[0].choice.is_none());
        assert_eq!(rows[0].step, m.step(1, 0.0));
        for r in &rows[1..] {
            let c = r.choice.as_ref().unwrap();
            assert_eq!(c.ranks, r.step.gpus);
            assert_eq!(c.size_bytes, m.gradient_bytes());
            assert_eq!(r.step, m.step(r.step.gpus, c.time_secs));
        }
    }

    #[test]
    fn counts_that_do_not_fill_whole_nodes_are_left_out_and_too_many_are_refused() {
        let rows = nccl_scaling(&bert(), "dgx-h100", 8, false, &[1, 8, 12, 16]).unwrap();
        assert_eq!(
            rows.iter().map(|r| r.step.gpus).collect::<Vec<_>>(),
            vec![1, 8, 16]
        );
        let e = nccl_scaling(&bert(), "dgx-h100", 8, false, &[2048]).unwrap_err();
        assert!(e.to_string().contains("1024"), "{e}");
        assert!(nccl_scaling(&bert(), "nope", 8, false, &[1]).is_err());
        assert!(nccl_scaling(&bert(), "dgx-h100", 9, false, &[1]).is_err());
    }

    #[test]
    fn nvls_off_makes_one_h100_box_slower_and_never_changes_two_nodes() {
        let m = bert();
        let on = nccl_scaling(&m, "dgx-h100", 8, true, &[8, 16]).unwrap();
        let off = nccl_scaling(&m, "dgx-h100", 8, false, &[8, 16]).unwrap();
        // One box: NVLS wins with it on; off, the ring is slower.
        assert_eq!(
            on[0].choice.as_ref().unwrap().algorithm,
            super::super::protocol::NcclAlgorithm::Nvls
        );
        assert!(off[0].step.comm_secs > on[0].step.comm_secs);
        // Across nodes NVLS is not available: the same prediction either way.
        assert_eq!(on[1], off[1]);
    }
}
