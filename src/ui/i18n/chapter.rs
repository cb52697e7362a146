//! The interface's texts for the guided chapter (§1.1–§1.5) and its claims: one row per key, English then Chinese.
//!
//! The rows join the one [`Key`](super::Key) table (see the chain in `mod.rs`): a row lacking
//! either text does not parse, and a key no row declares does not exist.

area! { $ chapter_rows {
    // §1.1
    WhyTitle => "1.1 The core logic of distributed training: why 8 GPUs are not 8×", "1.1 分布式训练的核心逻辑：为什么 8 张卡不是 8 倍";
    WhyBody => "A newcomer asks: “I train on 8 GPUs — is that 8 times as fast as one?” No. After every step the GPUs must exchange their gradients: communication costs time, and synchronising means waiting. The chapter says a speedup of 6–7× is typical, and that with a badly chosen topology it may not even reach 4×. Here BERT-large trains with a fixed batch per GPU, and after every step a simulated AllReduce sums its 1.36 GB of gradients: a ring, or in the badly chosen case a flat tree on the very same server.", "常有新手问：「我用 8 张卡训练，速度是不是单卡的 8 倍？」答案是否定的。每一步之后，各卡都要交换梯度：通信有开销，同步有等待。原文说实际加速比通常在 6–7 倍左右，如果拓扑选得不好，可能连 4 倍都到不了。这里用 BERT-large 训练（每卡批量固定），每一步之后用模拟的 AllReduce 汇总 1.36 GB 的梯度：用环形；或者在拓扑选得不好的情况下，在同一台服务器上改用扁平树。";
    WhyCluster => "Cluster", "集群";
    WhyGood => "8-GPU PCIe server, ring", "8 卡 PCIe 服务器，环形";
    WhyBad => "Network too slow: one GPU per server, 50 Gbps Ethernet", "网络太慢：每台服务器一张卡，50 Gbps 以太网";
    Speedup => "Speedup", "加速比";
    SpeedupOf => "{0} of an ideal {1}", "理想值为 {1}，实际 {0}";
    StepTime => "One training step", "一个训练步";
    Compute => "Compute", "计算";
    ExposedComm => "Exposed communication", "未被掩盖的通信";
    StorageWait => "Exposed storage IO", "未被掩盖的存储 IO";
    EfficiencyTitle => "Scaling efficiency (speedup ÷ GPUs) by GPU count", "不同卡数下的扩展效率（加速比 ÷ 卡数）";
    WhyReadout => "On {0}: a speedup of {1}; exposed communication takes {2} of every step.", "{0}：加速比 {1}；暴露的通信占每一步的 {2}。";
    WhyMoral => "The chapter: the larger the share of communication, the worse the speedup.", "原文：通信占比越大，加速比越难看。";

    // §1.2
    LayersTitle => "1.2 How a cluster is built, and its shortest stave", "1.2 集群架构组成与木桶效应";
    LayersBody => "A training cluster has four layers. A step goes only as fast as its slowest layer allows: the chapter's barrel holds water only up to its shortest stave. Pick one of the chapter's two stories, then change the storage and network bandwidth; below, slow one NIC or make one GPU late.", "一个典型的训练集群可以分成四层。训练的一步只能跑得和最慢的一层一样快：这就是原文说的木桶效应，木桶能装多少水，取决于最短的那块板。选一个原文中的故事，然后调节存储和网络带宽；在下面还可以调慢一块网卡，或者让一张卡晚到。";
    LayerCompute => "Compute layer", "计算层";
    LayerComputeParts => "GPU/NPU cards", "GPU/NPU 卡";
    LayerComputeNote => "Look beyond raw FLOPS: memory bandwidth and HBM capacity matter as much.", "别只看算力，显存带宽和 HBM 容量同样关键。";
    LayerNetwork => "Network layer", "网络层";
    LayerNetworkParts => "IB/RoCE NICs, switches", "IB/RoCE 网卡、交换机";
    LayerNetworkNote => "The physical basis of the communication topology. IB: low latency but expensive; RoCE: cheaper but harder to tune.", "通信拓扑的物理基础。IB 延迟低但贵；RoCE 性价比高但调优麻烦。";
    LayerStorage => "Storage layer", "存储层";
    LayerStorageParts => "Distributed file system (Lustre/GPFS)", "分布式文件系统（Lustre/GPFS）";
    LayerStorageNote => "Data loading is often the bottleneck.", "数据加载的瓶颈往往在这里。";
    LayerScheduling => "Scheduling layer", "调度层";
    LayerSchedulingParts => "Slurm/Kubernetes + job scheduler", "Slurm/Kubernetes + 任务调度器";
    LayerSchedulingNote => "Allocates resources and queues jobs (not simulated here).", "资源分配和任务排队（本页不模拟）。";
    ShortStave => "short stave", "短板";
    Story => "Story", "故事";
    StoryIo => "Storage saturated: ResNet-50 on 32 GPUs", "存储 IO 打满：32 卡训练 ResNet-50";
    // A non-breaking hyphen (U+2011): the button broke "BERT-" from "large" in Chinese.
    StoryNet => "A 100 Gbps network: BERT‑large on 32 GPUs", "网络只有 100 Gbps：32 卡训练 BERT‑large";
    LinkRefused => "This link's {0}={1} is none of this figure's settings: it shows its own.", "链接中的 {0}={1} 不是这张图可用的设置，图中显示的是它自己的默认设置。";
    StorageBandwidth => "Storage bandwidth (total)", "存储总带宽";
    NetworkBandwidth => "Network bandwidth per node", "每节点网络带宽";
    GpuUtilisation => "GPU utilisation", "GPU 利用率";
    CommShare => "Communication share", "通信占比";
    Bottleneck => "The short stave: {0}", "短板：{0}";
    NoBottleneck => "none: the GPUs are busy", "没有：GPU 在满负荷工作";
    StoryIoQuote => "The chapter: storage IO saturated and GPU utilisation fell to 30%.", "原文：存储 IO 打满，GPU 利用率掉到 30%。";
    StoryNetQuote => "The chapter: with only 100 Gbps of network, communication took over 40% of training time.", "原文：网络带宽只有 100 Gbps，结果通信开销占了训练时间的 40% 以上。";

    // §1.3.1
    RingTitle => "1.3.1 Ring AllReduce", "1.3.1 Ring AllReduce";
    RingBody => "Arrange the GPUs in a ring and cut each GPU's data into N chunks. Scatter-Reduce (the standard name is Reduce-Scatter): in each of N−1 steps every GPU passes one chunk to the next GPU, which adds it to its own. Afterwards each GPU holds one chunk summed over all GPUs. AllGather: in N−1 more steps the finished chunks travel on round the ring until every GPU holds all of them.", "把 GPU 排成一个环，每张卡把自己的数据分成 N 份。Scatter-Reduce（标准名称是 Reduce-Scatter）：在 N−1 步中，每张卡把一份数据传给下一张卡，下一张卡把它累加到自己的数据上。之后每张卡都持有一份汇总了所有卡的数据。AllGather：再经过 N−1 步，汇总好的数据沿环继续传递，直到每张卡都拿到全部结果。";
    RingGpus => "GPUs in the ring", "环上的 GPU 数";
    RingStart => "Start: every GPU holds only its own data.", "开始：每张卡只有自己的数据。";
    RingStepScatter => "Step {0} of {1} · Scatter-Reduce: each GPU adds the chunk it receives to its own.", "第 {0}/{1} 步 · Scatter-Reduce：每张卡把收到的数据块累加到自己的数据上。";
    RingStepGather => "Step {0} of {1} · AllGather: each GPU passes a finished chunk on.", "第 {0}/{1} 步 · AllGather：每张卡把汇总好的数据块继续传下去。";
    RingDone => "Done: every GPU holds the full sum. Each GPU sent {0} × S and received as much again; 2(N−1)/N = {1} (per direction).", "完成：每张卡都得到了完整的和。每张卡发送 {0} × S，另外又接收了同样多；2(N−1)/N = {1}（单个方向）。";
    RingLegend => "Each GPU's N cells are its chunks; the darker a cell, the more GPUs' data it holds. Arrows: this step's transfers.", "每张卡的 N 个格子是它的 N 份数据；颜色越深，汇总的卡越多。箭头：这一步的传输。";
    RingTry => "Try N = 2 and N = 8: the volume per GPU stays under 2 × S whatever N is.", "试试 N = 2 和 N = 8：无论 N 多大，每张卡的通信量都低于 2 × S。";
    Sent => "Sent", "已发送";
    Received => "Received", "已接收";
    PerGpuCounters => "Bytes per GPU so far (S = {0}, the data each GPU starts with and must end up with summed)", "到目前为止每张卡的字节数（S = {0}，即每张卡开始时持有、最后要得到其总和的数据量）";

    // §1.3.2
    TreeTitle => "1.3.2 Tree AllReduce", "1.3.2 Tree AllReduce";
    TreeBody => "Organise the GPUs as a tree. Reduce: from the leaves to the root, each level adds up the gradients. Broadcast: from the root back to the leaves, each level passes the result on. The chapter says the root carries (N−1) × the data: true for a flat tree, a star in which every GPU talks to the root. A binary tree spreads that load; NCCL uses a double binary tree, two complementary binary trees that each carry half of the data.", "把 GPU 组织成树形结构。Reduce：从叶子到根，逐层累加梯度。Broadcast：从根到叶子，逐层广播结果。原文说根节点的通信量是 (N−1) × 数据量：这对扁平树（星形，每张卡都直接与根通信）成立。二叉树把这份负载分散开；NCCL 使用双二叉树：两棵互补的二叉树，各传一半数据。";
    TreeShape => "Tree shape", "树的形状";
    TreeFlat => "Flat (star)", "扁平树（星形）";
    TreeBinary => "Binary", "二叉树";
    TreeDouble => "Double binary", "双二叉树";
    TreeLoadTitle => "Bytes each GPU sends and receives, in units of S", "每张卡发送和接收的字节数（以 S 为单位）";
    TreeReadout => "Root (GPU {0}) receives {1} × S and sends {2} × S. The busiest GPU moves {3} × S each way; in a ring every GPU moves {4} × S.", "根节点（GPU {0}）接收 {1} × S、发送 {2} × S。最忙的卡单向传输 {3} × S；环形中每张卡单向传输 {4} × S。";
    TreeTime => "Allreduce time for S = {0}: tree {1} ({2} segments), ring {3}.", "S = {0} 时 AllReduce 耗时：树形 {1}（{2} 段流水线），环形 {3}。";
    TreeTimeOneSegment => "Allreduce time for S = {0}: tree {1} (one segment), ring {3}.", "S = {0} 时 AllReduce 耗时：树形 {1}（不分段），环形 {3}。";
    SecondTree => "second tree", "第二棵树";
    FirstTree => "first tree", "第一棵树";
    Root => "root", "根";

    // §1.4
    CompareTitle => "1.4 Comparing them, and how to choose", "1.4 拓扑对比与选型建议";
    CompareTableCaption => "The chapter's comparison", "原文的对比";
    Feature => "Feature", "特性";
    RowVolume => "Communication volume", "通信量";
    RowLatency => "Latency", "延迟";
    RowUse => "Where it fits", "适用场景";
    RowComplexity => "Implementation complexity", "实现复杂度";
    RingVolume => "Fixed (about 2 × the data)", "固定（约 2 倍数据量）";
    TreeVolume => "Grows linearly with the GPU count", "随 GPU 数线性增长";
    RingLatency => "Higher (data goes all the way round)", "较高（数据要绕一圈）";
    TreeLatency => "Lower (tree structure)", "较低（树形结构）";
    RingUse => "Homogeneous clusters, inside a node", "同构集群、单节点内";
    TreeUse => "Across racks, uneven bandwidth", "跨机柜、异构带宽";
    RingComplexity => "Low (NCCL supports it natively)", "低（NCCL 原生支持）";
    TreeComplexity => "Medium (needs manual tuning)", "中（需要手动调优）";
    CompareBody => "The chapter's habit: ring inside a node, tree across nodes — but not absolutely. Its two scenarios, simulated: 2 racks × 2 nodes × 8 GPUs allreduce BERT-large's gradients; the tree is binomial and pipelined.", "原文的习惯：单节点内用 Ring，跨节点用 Tree——但这不是绝对的。下面模拟原文的两个场景：2 个机柜 × 2 个节点 × 8 张卡，同步 BERT-large 的梯度；树为流水线化的二项树。";
    Scenario => "Scenario", "场景";
    Scenario800200 => "In-rack 800 Gbps, cross-rack 200 Gbps", "机柜内 800 Gbps，机柜间 200 Gbps";
    Scenario400800 => "In-rack 400 Gbps, cross-rack 800 Gbps", "机柜内 400 Gbps，机柜间 800 Gbps";
    InRackBandwidth => "In-rack bandwidth (node NIC)", "机柜内带宽（节点网卡）";
    CrossRackBandwidth => "Cross-rack bandwidth (rack uplink)", "机柜间带宽（机柜上行）";
    AllreduceTime => "Allreduce time", "AllReduce 耗时";
    CrossRackBytes => "Bytes sent between racks", "机柜之间传输的字节数";
    TreeWins => "The tree takes {0} of the ring's time here.", "这里树形的耗时是环形的 {0}。";
    RingWins => "The ring takes {0} of the tree's time here.", "这里环形的耗时只有树形的 {0}。";
    CompareAdvice => "Don't trust any one topology blindly. Measure your own network with NCCL's tests (nccl-tests) before choosing; the full lab below runs a virtual version.", "不要迷信某种拓扑。实际选型前，先用 NCCL 的测试工具（nccl-tests）在你自己的网络上跑一遍；下面的完整实验室可以做虚拟测试。";

    // §1.5
    MapTitle => "1.5 Knowledge map", "1.5 知识体系总览";
    MapBody => "The chapter's ideas in one picture. Every box links to its section.", "本章的核心逻辑串成一张图。点击方框跳到对应小节。";
    MapRoot => "Cluster training", "集群训练";
    MapHardware => "Hardware architecture", "硬件架构";
    MapTopology => "Communication topology", "通信拓扑";
    MapParallel => "Parallel strategies (next chapters)", "并行策略（后续章节）";
    MapSpeedup => "Speedup: 8 GPUs ≠ 8×", "加速比：8 卡 ≠ 8 倍";
    MapLayers => "Four layers; the network is the short stave", "四层结构；网络是短板";
    MapRing => "Ring: Scatter-Reduce + AllGather", "Ring：Scatter-Reduce + AllGather";
    MapTree => "Tree: Reduce + Broadcast", "Tree：Reduce + Broadcast";
    MapChoose => "Compare and choose; measure first", "对比与选型：先测再定";
    MapClaims => "Every number, checked", "每个数字都经过核验";

    // Claims
    ClaimsTitle => "The chapter's claims, checked", "原文论断核验";
    ClaimsFixed => "The volume and latency claims run on a uniform network: every GPU's own {0} port to one switch, {1} of latency (α) per message. The Ring vs Tree figure above has its own cluster and sliders.", "通信量与延迟类论断在均匀网络上模拟：每张卡一个 {0} 的端口连到同一台交换机，每条消息延迟（α）{1}。上面的 Ring 与 Tree 对比图使用它自己的集群与滑块。";
    ClaimsBody => "Every number the chapter states, next to what the simulation gives under the conditions you set. Change a condition and every verdict is computed again.", "原文中的每个数字，与模拟在你设定的条件下给出的结果并列。改变任一条件，所有结论都会重新计算。";
    Conditions => "Conditions", "条件";
    MessageSize => "Message size per GPU (S)", "每卡消息大小（S）";
    NodeNic => "Node NIC bandwidth", "节点网卡带宽";
    RackUplink => "Rack uplink bandwidth", "机柜上行带宽";
    AsInChapter => "as in the chapter", "按原文设定";
    ResetConditions => "Reset to the chapter's conditions", "恢复原文条件";
    VerdictChanged => "changed", "已改变";
    VerdictChangedNote => "Verdicts that the last change of conditions turned are marked “changed”.", "上一次改变条件后结论发生变化的行标有“已改变”。";
    ColSection => "Section", "小节";
    ColClaim => "The chapter says", "原文";
    ColValue => "Simulated", "模拟值";
    ColVerdict => "Verdict", "结论";
    ColWhy => "Why", "说明";
    VerdictHolds => "Holds", "成立";
    VerdictHoldsUnder => "Holds under these conditions", "有条件成立";
    VerdictDoesNotHold => "Does not hold", "不成立";
    ClaimError => "Cannot simulate these conditions: {0}", "无法模拟这些条件：{0}";
    ValuePerGpuVolume => "per-GPU volume", "每卡通信量";
    ValueTimeGrowth => "time, N → 2N", "时间，N → 2N";
    ValueRootVolume => "root volume", "根节点通信量";
    ValueRootOverRing => "root ÷ ring GPU", "根节点 ÷ 环形每卡";
    ValueLatencyRatio => "ring ÷ tree, 8 B message", "环形 ÷ 树形，8 字节消息";
    ValueCrossRackRatio => "ring ÷ tree, cross-rack bytes", "环形 ÷ 树形，跨机柜字节";
    ValueSpeedup => "speedup on 8 GPUs", "8 卡加速比";
    ValueCommShare => "communication share", "通信占比";
    ValueUtilisation => "GPU utilisation", "GPU 利用率";
    ValueRingOverTree => "ring time ÷ tree time", "环形耗时 ÷ 树形耗时";
} }
