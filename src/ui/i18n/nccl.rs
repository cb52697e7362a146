//! The interface's texts for the real-hardware (NCCL) panel, the paste and the lab's NCCL card: one row per key, English then Chinese.
//!
//! The rows join the one [`Key`](super::Key) table (see the chain in `mod.rs`): a row lacking
//! either text does not parse, and a key no row declares does not exist.

area! { $ nccl_rows {
    // The real-hardware panel.
    NcclTitle => "Real hardware: what NCCL reaches", "真实硬件：NCCL 实际能达到多少";
    NcclLede => "The textbook α-β model gives the wire rate. Real NCCL moves data with protocols (LL, LL128, Simple), splits it over channels, and pays launch and per-hop latencies; on Hopper NVSwitch boxes the switch itself can add (NVLink SHARP). Switch the model and compare with published nccl-tests measurements.", "教科书式的 α-β 模型给出的是线路速率。真实的 NCCL 用协议（LL、LL128、Simple）搬运数据、把数据分到多个通道上，并要付出启动和每跳延迟；在 Hopper NVSwitch 机器上，交换机本身还能做加法（NVLink SHARP）。切换模型，并与公开的 nccl-tests 实测结果对比。";
    NcclModelSwitch => "Network model", "网络模型";
    NcclModelIdeal => "textbook α-β", "教科书 α-β";
    NcclModelNccl => "like NCCL on this hardware", "像 NCCL 在这台硬件上一样";
    NcclSystem => "System", "系统";
    SystemNodes => "{0}, {1} nodes", "{0}，{1} 台";
    ScalingNcclSeries => "like NCCL on {0}", "像 NCCL 在 {0} 上";
    ScalingNcclNote => "Each point is the allreduce NCCL would run on that many GPUs of {0} (8 per node: one node up to 8 GPUs, then whole nodes): its algorithm, protocol and channels as the real-hardware model predicts them, up to {1} GPUs. The hardware and algorithms above belong to the textbook model.", "每个点都是 NCCL 在 {0} 的这么多张卡上会执行的 AllReduce（每节点 8 张：8 张以内在一个节点上，之后按整节点增加）：算法、协议和通道数由真实硬件模型预测，最多 {1} 张卡。上面的硬件和算法属于教科书模型。";
    LabNcclLike => "like NCCL on real hardware", "像 NCCL 在真实硬件上";
    LabNcclIntro => "What NCCL would do for this run on {0}: {1} × {2} GPUs, {3} per GPU (the real-hardware model: protocols, channels, efficiencies, latencies). On {0}'s own links, not the sliders': {4} per GPU into its node, {5} × {6} NICs per node.", "NCCL 在 {0} 上会怎样执行这次运行：{1} × {2} 张卡，每卡 {3}（真实硬件模型：协议、通道、效率、延迟）。用的是 {0} 自己的链路，而不是滑块的：每卡 {4} 接入节点，每节点 {5} 块 {6} 网卡。";
    LabNcclAlgorithm => "algorithm", "算法";
    LabNcclChannels => "channels", "个通道";
    LabNcclTime => "time", "时间";
    LabNcclTuner => "tuner, all channels", "调优器（全部通道）";
    LabNcclWhy => "Why: {0} has the lowest time NCCL's tuner predicts (every channel busy), {1}, against {2} for {3} (the runner-up, {5}), of {4} candidates simulated (on more than 64 GPUs, those whose bound cannot win are skipped).", "原因：在 NCCL 调优器的预测中（所有通道都忙），{0} 的时间最短，为 {1}；第二名 {3} 为 {2}（{5}）；共模拟了 {4} 个候选（超过 64 张卡时，下界已无法胜出的候选会被跳过）。";
    LabNcclTie => "Why: {0} ties with {1} for the lowest time NCCL's tuner predicts (every channel busy), {2} each, of {3} candidates simulated (on more than 64 GPUs, those whose bound cannot win are skipped).", "原因：在 NCCL 调优器的预测中（所有通道都忙），{0} 与 {1} 的时间并列最短，均为 {2}；共模拟了 {3} 个候选（超过 64 张卡时，下界已无法胜出的候选会被跳过）。";
    LabNcclOnly => "Why: {0} is the only candidate simulated here (on more than 64 GPUs, those whose bound cannot win are skipped).", "原因：{0} 是这里唯一被模拟的候选（超过 64 张卡时，下界已无法胜出的候选会被跳过）。";
    LabNcclPredicting => "Simulating NCCL's candidates: {0} of {1}…", "正在模拟 NCCL 的候选：第 {0} 个，共 {1} 个…";
    LabNcclCandidates => "Candidates simulated: {0}", "模拟的候选：{0} 个";
    LabNcclOneGpu => "One GPU has nothing to reduce.", "一张卡没有需要归约的数据。";
    LabNcclNotWhole => "{0} GPUs on one switch do not fill whole nodes of 8 GPUs, as these systems are built; pick a multiple of 8 (or up to 8).", "一个交换机上的 {0} 张卡填不满每节点 8 张卡的整节点（这些系统就是这样组成的）；请选择 8 的倍数（或不超过 8 张）。";
    LabNcclTooMany => "The browser predicts NCCL for up to {1} GPUs (this run has {0}); the command line takes up to 1,024:", "浏览器中最多为 {1} 张卡预测 NCCL（本次运行有 {0} 张）；命令行最多支持 1,024 张：";
    LabNcclSystemError => "This system cannot take the lab's shape: ", "该系统无法容纳实验室当前的形状：";
    ScalingNcclChoices => "NCCL's choice on {0} GPUs, per size: ", "NCCL 在 {0} 张卡上按消息大小的选择：";
    NcclNvls => "NVLink SHARP (NVLS)", "NVLink SHARP（NVLS，交换机内归约）";
    NcclOverWire => "busbw passes it with NVLS: the switch adds, so each GPU sends its data once and receives the sum, S(1 + 1/N) each way (its share of the sum goes up once more to be multicast) where busbw assumes a ring's 2(N−1)/N × S.", "开启 NVLS 时 busbw 会超过它：交换机做加法，每张卡只上传一次数据并接收总和，每个方向 S(1 + 1/N)（它负责的那份总和还要再上传一次以便组播），而 busbw 按环形的 2(N−1)/N × S 计算。";
    NcclIntraShare => "GPU links: NCCL's copies reach {0} of the {1} datasheet rate at large sizes.", "GPU 互连：大消息时 NCCL 的拷贝能达到标称 {1} 的 {0}。";
    ParseTooFewColumns => "a row needs at least size, count, type, redop, time, algbw, busbw; this one has {0}", "一行至少需要大小、数量、类型、归约、时间、algbw、busbw；这一行只有 {0} 列";
    ParseNotANumber => "'{0}' is not a number where one is expected", "'{0}' 不是数字，但这里需要数字";
    ParseBadTime => "time '{0}' must be a number of µs from 0.001 to 1e10", "时间 '{0}' 必须是 0.001 到 1e10 之间的数（µs）";
    ParseBadBandwidth => "bandwidth '{0}' must be a non-negative number", "带宽 '{0}' 必须是非负数";
    ParseDuplicateSize => "this size already appears on line {0}", "这个大小已在第 {0} 行出现";
    ParseSizeTooLarge => "size {0} is above 1 TB, the largest the model predicts", "大小 {0} 超过了 1 TB，即模型能预测的最大值";
    ParseTooManyRows => "more than {0} rows: not one nccl-tests sweep", "超过 {0} 行：不是一次 nccl-tests 扫描的输出";
    FitTooFewRows => "the fit needs at least {0} rows of different sizes; the paste has {1}", "拟合至少需要 {0} 行不同大小的数据；粘贴内容只有 {1} 行";
    FitRanksMismatch => "the table's busbw/algbw ratio says {0} GPUs, but the chosen system has {1}", "表中 busbw/algbw 的比值表明有 {0} 张卡，但所选系统有 {1} 张";
    NcclBusbwAt8Gib => "busbw of an 8 GiB allreduce: ", "8 GiB AllReduce 的 busbw：";
    NcclModelNcclNote => " (like NCCL: protocols, channels, efficiencies, latencies)", "（像 NCCL：协议、通道、效率、延迟）";
    NcclModelIdealNote => " (textbook: ring at the datasheet rate)", "（教科书：按标称速率的环形算法）";
    NcclPredicted => "predicted (like NCCL)", "预测（像 NCCL）";
    NcclPublished => "published measurement", "公开实测";
    NcclChartTitle => "Virtual nccl-tests: busbw vs message size", "虚拟 nccl-tests：busbw 与消息大小";
    NcclSourceNote => "Published points: {0}", "公开实测点：{0}";
    NcclNoPublished => "No published table for this system in the tool; the curve is the model alone.", "本工具中没有该系统的公开实测表；曲线仅为模型预测。";
    NcclColSize => "size", "大小";
    NcclColMeasured => "measured", "实测";
    NcclColPredicted => "predicted", "预测";
    NcclColError => "error", "误差";
    NcclColChoice => "algorithm/protocol", "算法/协议";
    NcclChangeToLl => "Back to LL: its low latency wins again.", "回到 LL：它的低延迟重新占优。";
    NcclChangeToLl128 => "LL128 takes over: 120 of every 128 bytes are data, nearly as much per byte as Simple, while keeping a low latency.", "LL128 接手：每 128 字节中有 120 字节是数据，每字节的效率接近 Simple，同时延迟仍低。";
    NcclChangeToSimple => "Simple takes over: no flag bytes, every byte on the wire is data; its higher latency per step no longer matters at this size.", "Simple 接手：没有标志字节，线路上每个字节都是数据；在这个大小下，它每步更高的延迟已无关紧要。";
    NcclChangeToRing => "Ring takes over: every link busy, the most bandwidth per GPU.", "环形算法接手：所有链路都在工作，每张卡的带宽最高。";
    NcclChangeToTree => "Tree takes over: fewer steps in a row, so less latency.", "树形算法接手：串行步骤更少，延迟更低。";
    NcclChangeToNvls => "NVLS takes over: the NVSwitch adds the data itself, so each GPU sends its data up once and receives the sum.", "NVLS 接手：由 NVSwitch 自己做加法，每张卡上传一次数据并接收总和。";
    NcclExplainTitle => "Protocols and channels, briefly", "协议与通道简介";
    NcclExplainLl => "LL (low latency): every 8-byte store carries 4 bytes of data and a 4-byte flag, so the receiver just polls the flag — half the wire rate, the lowest latency.", "LL（低延迟）：每次 8 字节写入携带 4 字节数据和 4 字节标志，接收方只需轮询标志——只有一半线路速率，但延迟最低。";
    NcclExplainLl128 => "LL128: 128-byte lines with 120 bytes of data and an 8-byte flag; needs NVLink, so NCCL enables it only there.", "LL128：128 字节一行，其中 120 字节数据、8 字节标志；需要 NVLink，所以 NCCL 只在那里启用。";
    NcclExplainSimple => "Simple: large copies with a fence and a flag per step — the full wire rate, the highest latency.", "Simple：大块拷贝，每步一个内存屏障和一个标志——全线路速率，延迟最高。";
    NcclExplainChannels => "Channels: NCCL runs a collective on several rings or trees at once, each driven by one thread block and sharing every link; small messages use fewer channels, which is why mid sizes ramp up slowly.", "通道：NCCL 同时在多个环或树上执行一次集合通信，每个由一个线程块驱动并共享所有链路；小消息使用更少的通道，所以中等大小的带宽爬升较慢。";
    NcclExplainFigure => "The same 1 MiB ring allreduce on this system under each protocol:", "同一个 1 MiB 环形 AllReduce 在本系统上使用各协议的时间：";
    NcclProtoOff => "not enabled on this system", "本系统未启用";
    PasteTitle => "Compare with your cluster", "与你的集群对比";
    PasteNote => "Paste the output of all_reduce_perf from your cluster (with its comments, any number of rows); the same fit as the calibrate command runs on it for the system chosen above.", "粘贴你集群上 all_reduce_perf 的输出（可带注释，行数不限）；将对上面选中的系统运行与 calibrate 命令相同的拟合。";
    PasteFit => "Fit", "拟合";
    PasteFitting => "Fitting: {0} of at most {1} runs of the model over your rows…", "拟合中：已在你的数据行上运行模型 {0} 次（最多 {1} 次）…";
    PasteBadLine => "Line {0} of the paste: {1}", "粘贴内容第 {0} 行：{1}";
    PasteNoRows => "This does not look like all_reduce_perf output: no row of size, count, type, redop, time, algbw, busbw.", "这看起来不像 all_reduce_perf 的输出：没有包含大小、数量、类型、归约、时间、algbw、busbw 的行。";
    PasteFitFailed => "The fit could not run: {0}", "无法拟合：{0}";
    FitNic => "Your NICs deliver {0} of {1}.", "你的网卡发挥出 {1} 的 {0}。";
    FitIntra => "Your GPU links reach {0} of {1}.", "你的 GPU 互连达到 {1} 的 {0}。";
    FitFloor => "Your fastest row, {1}, took {0}.", "你最快的一行（{1}）耗时 {0}。";
    FitWithin => "From {0} up, the fitted model predicts your rows within 5%.", "从 {0} 起，拟合后的模型与你的数据相差都在 5% 以内。";
    FitNotWithin => "Even the largest sizes are more than 5% away from what the fitted model predicts.", "即使是最大的消息，也与拟合模型的预测相差超过 5%。";
    FitGeomean => "The fitted model matches your rows within {0} (geometric mean).", "拟合后的模型与你的数据相差 {0}（几何平均）。";
} }
