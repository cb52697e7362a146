//! The training step model: what communication does to data-parallel speedup.
//!
//! One step on one GPU = compute (forward + backward on a fixed per-GPU batch). On N GPUs, the
//! gradients (parameters × bytes per gradient) are allreduced — simulated by the core on the
//! scenario's topology and algorithm — and that allreduce may overlap a share of the backward pass.
//! The input batch is read from a storage system shared by all GPUs and prefetched (the next
//! batch loads while this step computes and communicates, as data loaders with worker processes
//! do), so a step takes whichever is longer, loading or computing plus what communication leaves
//! exposed:
//!
//! ```text
//! T(N)         = max(IO, compute + exposed comm) = compute + exposed comm + exposed IO
//! IO           = N · input bytes / storage bandwidth
//! exposed comm = max(0, allreduce time − overlap · backward share · compute)
//! exposed IO   = max(0, IO − compute − exposed comm)
//! speedup      = N · T(1) / T(N)
//! ```
//!
//! ```
//! use allreduce_sim::training::*;
//! let model = TrainingModel { parameters: 100_000_000, bytes_per_gradient: 4, compute_secs: 0.2,
//!     backward_share: 2.0 / 3.0, overlap: 0.0, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
//! // With a 10 ms allreduce, one step takes 210 ms instead of 200 ms: 8 × 200/210.
//! let s = model.step(8, 0.01);
//! assert!((s.speedup - 8.0 * 0.2 / 0.21).abs() < 1e-12);
//! assert!((s.step_secs - (s.compute_secs + s.exposed_io_secs + s.exposed_comm_secs)).abs() < 1e-15);
//! ```

use super::algorithms::Algorithm;
use super::scenario::{Scenario, ScenarioError, Share, simulate_time};
use super::shape::fit;
use super::topology::TopologySpec;
use serde::{Deserialize, Serialize};

/// A model being trained and the data it reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingModel {
    pub parameters: u64,
    /// 4 for fp32 gradients, 2 for bf16/fp16.
    pub bytes_per_gradient: u32,
    /// Forward + backward time of one step on one GPU.
    pub compute_secs: f64,
    /// The share of `compute_secs` spent in the backward pass (commonly about 2/3).
    pub backward_share: f64,
    /// The share of the backward pass the allreduce can overlap (0: none, 1: all of it).
    pub overlap: f64,
    /// Bytes each GPU reads from shared storage per step.
    pub input_bytes_per_gpu: f64,
    /// The storage system's total read bandwidth, shared by all GPUs.
    pub storage_bytes_per_sec: f64,
}

/// One step on N GPUs, broken into its parts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepBreakdown {
    pub gpus: usize,
    pub compute_secs: f64,
    pub exposed_io_secs: f64,
    /// Loading the step's input from shared storage, hidden (prefetched) or not.
    pub io_secs: f64,
    /// The allreduce's own time, hidden or not.
    pub comm_secs: f64,
    pub exposed_comm_secs: f64,
    pub step_secs: f64,
    /// N × T(1) / T(N).
    pub speedup: f64,
    /// speedup / N.
    pub scaling_efficiency: f64,
    /// compute / step.
    pub gpu_utilisation: f64,
    /// exposed communication / step.
    pub comm_share: f64,
}

impl TrainingModel {
    /// The gradient bytes each GPU contributes to the allreduce.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::training::TrainingModel;
    /// let model = TrainingModel { parameters: 340_000_000, bytes_per_gradient: 2, compute_secs: 0.2,
    ///     backward_share: 2.0 / 3.0, overlap: 0.0, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
    /// assert_eq!(model.gradient_bytes(), 680_000_000); // 340 M bf16 gradients
    /// ```
    pub fn gradient_bytes(&self) -> u64 {
        self.parameters
            .saturating_mul(self.bytes_per_gradient as u64)
    }

    /// Seconds to load one step's input for `gpus` GPUs from the shared storage.
    fn io_secs(&self, gpus: usize) -> f64 {
        gpus as f64 * self.input_bytes_per_gpu / self.storage_bytes_per_sec
    }

    /// The step on `gpus` GPUs whose gradient allreduce takes `comm_secs`:
    /// max(IO, compute + exposed communication).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::training::TrainingModel;
    /// let model = TrainingModel { parameters: 100_000_000, bytes_per_gradient: 4, compute_secs: 0.3,
    ///     backward_share: 2.0 / 3.0, overlap: 0.5, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
    /// // Overlap hides 0.5 × 2/3 × 300 ms = 100 ms of a 150 ms allreduce: 50 ms show.
    /// let s = model.step(8, 0.15);
    /// assert!((s.exposed_comm_secs - 0.05).abs() < 1e-15);
    /// assert!((s.speedup - 8.0 * 0.3 / 0.35).abs() < 1e-12);
    /// assert_eq!(model.step(1, 0.15).speedup, 1.0); // one GPU has nothing to reduce
    /// ```
    pub fn step(&self, gpus: usize, comm_secs: f64) -> StepBreakdown {
        let hidden = self.overlap * self.backward_share * self.compute_secs;
        let exposed_comm = if gpus > 1 {
            (comm_secs - hidden).max(0.0)
        } else {
            0.0
        };
        let (step, exposed_io, io) = self.step_secs(gpus, exposed_comm);
        let single = self.step_secs(1, 0.0).0;
        let speedup = gpus as f64 * single / step;
        StepBreakdown {
            gpus,
            compute_secs: self.compute_secs,
            exposed_io_secs: exposed_io,
            io_secs: io,
            comm_secs: if gpus > 1 { comm_secs } else { 0.0 },
            exposed_comm_secs: exposed_comm,
            step_secs: step,
            speedup,
            scaling_efficiency: speedup / gpus as f64,
            gpu_utilisation: self.compute_secs / step,
            comm_share: exposed_comm / step,
        }
    }

    /// (step, exposed IO, IO): the GPUs are busy for compute + exposed communication while the
    /// next batch loads; only loading beyond that shows.
    fn step_secs(&self, gpus: usize, exposed_comm: f64) -> (f64, f64, f64) {
        let busy = self.compute_secs + exposed_comm;
        let io = self.io_secs(gpus);
        let exposed_io = (io - busy).max(0.0);
        (busy + exposed_io, exposed_io, io)
    }

    /// Checks the model's bounds.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{scenario::{ScenarioError, Share}, training::TrainingModel};
    /// let mut model = TrainingModel { parameters: 100_000_000, bytes_per_gradient: 4, compute_secs: 0.3,
    ///     backward_share: 2.0 / 3.0, overlap: 0.5, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
    /// assert_eq!(model.validate(), Ok(()));
    /// model.overlap = 1.5;
    /// assert_eq!(model.validate(), Err(ScenarioError::ShareOutOfRange { share: Share::Overlap }));
    /// model.bytes_per_gradient = 3;
    /// assert_eq!(model.validate(), Err(ScenarioError::BytesPerGradient));
    /// ```
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let finite_pos = |x: f64| x.is_finite() && x > 0.0;
        if self.parameters < 1 || self.parameters > 10_000_000_000_000 {
            return Err(ScenarioError::ParametersOutOfRange);
        }
        if !matches!(self.bytes_per_gradient, 1 | 2 | 4 | 8) {
            return Err(ScenarioError::BytesPerGradient);
        }
        // Said of the model here, not later as a size the learner never gave.
        if self.gradient_bytes() > super::scenario::MAX_SIZE_BYTES {
            return Err(ScenarioError::GradientsTooLarge {
                parameters: self.parameters,
                bytes_per_gradient: self.bytes_per_gradient,
            });
        }
        if !finite_pos(self.compute_secs) || self.compute_secs > 3600.0 {
            return Err(ScenarioError::ComputeOutOfRange);
        }
        for (share, x) in [
            (Share::Backward, self.backward_share),
            (Share::Overlap, self.overlap),
        ] {
            if !(x.is_finite() && (0.0..=1.0).contains(&x)) {
                return Err(ScenarioError::ShareOutOfRange { share });
            }
        }
        if !(self.input_bytes_per_gpu.is_finite() && self.input_bytes_per_gpu >= 0.0) {
            return Err(ScenarioError::InputBytesNegative);
        }
        if !finite_pos(self.storage_bytes_per_sec) {
            return Err(ScenarioError::StorageNotPositive);
        }
        Ok(())
    }
}

/// The same machine with `gpus` GPUs, as built: the shape [`super::shape::fit`] gives, when it is
/// [`exact`](super::shape::Shape::exact) (full nodes filling full racks, or a part of one node
/// or rack); `None` otherwise, and for no GPUs.
///
/// # Examples
///
/// ```
/// use allreduce_sim::{training::resize, topology::TopologySpec, units::Bandwidth};
/// let bw = Bandwidth::from_gbytes_per_sec(50.0);
/// let spec = TopologySpec::Cluster { racks: 2, nodes_per_rack: 2, gpus_per_node: 4,
///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
///     oversubscription: 1.0, nics_per_node: 1 };
/// let Some(TopologySpec::Cluster { racks, nodes_per_rack, gpus_per_node, .. }) = resize(&spec, 8) else { panic!() };
/// assert_eq!((racks, nodes_per_rack, gpus_per_node), (1, 2, 4)); // one full rack
/// assert_eq!(resize(&spec, 6), None); // a node and a half is not the machine as built
/// assert_eq!(resize(&spec, 0), None);
/// ```
pub fn resize(topology: &TopologySpec, gpus: usize) -> Option<TopologySpec> {
    if gpus == 0 {
        return None;
    }
    let mut t = topology.clone();
    match &mut t {
        TopologySpec::Uniform { ranks, .. } => *ranks = gpus,
        TopologySpec::Cluster {
            racks,
            nodes_per_rack,
            gpus_per_node,
            nics_per_node,
            ..
        } => {
            let s = fit(gpus, *gpus_per_node, *nodes_per_rack);
            if !s.exact(*gpus_per_node, *nodes_per_rack) {
                return None;
            }
            (*racks, *nodes_per_rack, *gpus_per_node) =
                (s.racks, s.nodes_per_rack, s.gpus_per_node);
            // A part of a node keeps at most one NIC per GPU.
            *nics_per_node = (*nics_per_node).min(s.gpus_per_node);
        }
        TopologySpec::Rail {
            nodes,
            gpus_per_node,
            ..
        } => {
            let s = fit(gpus, *gpus_per_node, 1);
            if !s.exact(*gpus_per_node, 1) {
                return None;
            }
            (*nodes, *gpus_per_node) = (s.racks, s.gpus_per_node);
        }
    }
    Some(t)
}

/// Speedup and step breakdown for each GPU count in `counts` (those the topology can take), with
/// no reduction cost (γ = 0). See [`scaling_with_gamma`].
///
/// # Examples
///
/// ```
/// use allreduce_sim::{training::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let model = TrainingModel { parameters: 1_000_000, bytes_per_gradient: 4, compute_secs: 0.01,
///     backward_share: 2.0 / 3.0, overlap: 0.0, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
/// let topo = TopologySpec::Uniform { ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 };
/// let steps = scaling(&model, &topo, Algorithm::Ring, 1, &[1, 4]).unwrap();
/// assert_eq!(steps[0].speedup, 1.0);
/// // 4 MB of gradients on a 4-GPU ring: 6 × (5 µs + 10 µs) = 90 µs of communication per step.
/// assert!((steps[1].comm_secs - 90e-6).abs() < 1e-15);
/// assert!((steps[1].speedup - 4.0 * 0.01 / 0.01009).abs() < 1e-12);
/// ```
pub fn scaling(
    model: &TrainingModel,
    topology: &TopologySpec,
    algorithm: Algorithm,
    segments: usize,
    counts: &[usize],
) -> Result<Vec<StepBreakdown>, ScenarioError> {
    scaling_with_gamma(model, topology, algorithm, segments, 0.0, counts)
}

/// Speedup and step breakdown for each GPU count in `counts` (those the topology can take), the
/// gradient allreduce costing `gamma_secs_per_byte` per byte reduced. Every count's scenario is
/// validated before any is simulated, so a count beyond the limits fails at once.
///
/// ```
/// use allreduce_sim::{training::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let model = TrainingModel { parameters: 10_000_000, bytes_per_gradient: 4, compute_secs: 0.1,
///     backward_share: 2.0 / 3.0, overlap: 0.0, input_bytes_per_gpu: 0.0, storage_bytes_per_sec: 1e12 };
/// let topo = TopologySpec::Uniform { ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 };
/// let at = |gamma| scaling_with_gamma(&model, &topo, Algorithm::Ring, 1, gamma, &[8]).unwrap()[0];
/// // Reducing costs time: the step grows and the speedup falls.
/// assert!(at(1e-10).comm_secs > at(0.0).comm_secs);
/// assert!(at(1e-10).speedup < at(0.0).speedup);
/// // A count beyond the limits is refused before anything runs.
/// assert!(scaling_with_gamma(&model, &topo, Algorithm::Ring, 1, 0.0, &[2, 4096]).is_err());
/// ```
pub fn scaling_with_gamma(
    model: &TrainingModel,
    topology: &TopologySpec,
    algorithm: Algorithm,
    segments: usize,
    gamma_secs_per_byte: f64,
    counts: &[usize],
) -> Result<Vec<StepBreakdown>, ScenarioError> {
    model.validate()?;
    let runs: Vec<(usize, Option<Scenario>)> = counts
        .iter()
        .filter_map(|&n| {
            let topology = resize(topology, n)?;
            let scenario = (n > 1).then(|| Scenario {
                topology,
                algorithm,
                size_bytes: model.gradient_bytes(),
                segments,
                gamma_secs_per_byte,
                faults: Default::default(),
            });
            Some((n, scenario))
        })
        .collect();
    for scenario in runs.iter().filter_map(|(_, s)| s.as_ref()) {
        scenario.validate()?;
    }
    runs.into_iter()
        .map(|(n, scenario)| {
            let comm = match scenario {
                Some(s) => simulate_time(&s)?.time_secs,
                None => 0.0,
            };
            Ok(model.step(n, comm))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Bandwidth;

    use crate::fixtures::bert as model;

    #[test]
    fn free_communication_and_io_give_a_speedup_of_n() {
        let m = TrainingModel {
            input_bytes_per_gpu: 0.0,
            ..model()
        };
        for n in [1, 2, 8, 64, 1024] {
            let s = m.step(n, 0.0);
            assert!((s.speedup - n as f64).abs() < 1e-9);
            assert_eq!(s.gpu_utilisation, 1.0);
        }
    }

    #[test]
    fn overlap_hides_communication_up_to_the_backward_pass() {
        let m = model();
        let hidden = 0.5 * 2.0 / 3.0 * 0.3;
        assert_eq!(m.step(8, hidden * 0.9).exposed_comm_secs, 0.0);
        assert!((m.step(8, hidden + 0.05).exposed_comm_secs - 0.05).abs() < 1e-12);
        let none = TrainingModel {
            overlap: 0.0,
            ..m.clone()
        };
        let all = TrainingModel { overlap: 1.0, ..m };
        assert!(all.step(8, 0.2).speedup > none.step(8, 0.2).speedup);
    }

    #[test]
    fn the_breakdown_sums_to_the_step() {
        let m = model();
        for (n, c) in [(1, 0.0), (8, 0.05), (64, 0.4)] {
            let s = m.step(n, c);
            assert!(
                (s.compute_secs + s.exposed_io_secs + s.exposed_comm_secs - s.step_secs).abs()
                    < 1e-15
            );
        }
    }

    #[test]
    fn a_step_is_the_longer_of_loading_and_computing_plus_exposed_communication() {
        // 1 GB/s storage: 8 GPUs load 8 MB in 8 ms, 64 GPUs 64 MB in 64 ms, 512 GPUs in 512 ms.
        let m = TrainingModel {
            input_bytes_per_gpu: 1e6,
            storage_bytes_per_sec: 1e9,
            overlap: 0.0,
            ..model()
        };
        for (n, comm) in [
            (8, 0.0),
            (8, 0.1),
            (64, 0.25),
            (512, 0.1),
            (512, 0.3),
            (4096, 0.5),
        ] {
            let s = m.step(n, comm);
            let io = n as f64 * 1e6 / 1e9;
            assert_eq!(s.io_secs, io);
            assert_eq!(s.step_secs, io.max(0.3 + comm), "n={n} comm={comm}");
            // Loading hides behind communication too, not only behind compute.
            assert!((s.exposed_io_secs - (io - (0.3 + comm)).max(0.0)).abs() < 1e-15);
            assert!(
                (s.compute_secs + s.exposed_io_secs + s.exposed_comm_secs - s.step_secs).abs()
                    <= 1e-15 * s.step_secs
            );
        }
        // At 512 GPUs loading takes 0.512 s: 0.1 s of communication fits under it for free.
        assert_eq!(m.step(512, 0.1).step_secs, m.step(512, 0.0).step_secs);
    }

    #[test]
    fn speedup_falls_as_bandwidth_falls() {
        // Without overlap every bit of communication shows in the step.
        let m = TrainingModel {
            overlap: 0.0,
            ..model()
        };
        let at = |gbps: f64| {
            let topo = TopologySpec::Uniform {
                ranks: 8,
                bandwidth: Bandwidth::from_gbits_per_sec(gbps),
                latency_secs: 5e-6,
            };
            scaling(&m, &topo, Algorithm::Ring, 1, &[8]).unwrap()[0].speedup
        };
        assert!(at(800.0) > at(200.0));
        assert!(at(200.0) > at(50.0));
    }

    #[test]
    fn resize_fills_nodes_then_racks() {
        let t = TopologySpec::Cluster {
            racks: 4,
            nodes_per_rack: 4,
            gpus_per_node: 8,
            intra_bw: Bandwidth::from_gbytes_per_sec(300.0),
            intra_lat_secs: 1e-6,
            node_bw: Bandwidth::from_gbits_per_sec(200.0),
            node_lat_secs: 2e-6,
            rack_bw: Bandwidth::from_gbits_per_sec(400.0),
            rack_lat_secs: 5e-6,
            oversubscription: 1.0,
            nics_per_node: 1,
        };
        let shape = |n| match resize(&t, n) {
            Some(TopologySpec::Cluster {
                racks,
                nodes_per_rack,
                gpus_per_node,
                ..
            }) => Some((racks, nodes_per_rack, gpus_per_node)),
            _ => None,
        };
        assert_eq!(shape(4), Some((1, 1, 4)));
        assert_eq!(shape(16), Some((1, 2, 8)));
        assert_eq!(shape(128), Some((4, 4, 8)));
        assert_eq!(shape(12), None);
    }
}
