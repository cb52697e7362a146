//! The sentences of the core's errors: one row per kind (or name), English then Chinese.

strings! {
    /// The sentences of the core's errors.
    ErrorKey {
        // Names the sentences use.
        QSize => "size", "大小";
        QBandwidth => "bandwidth", "带宽";
        QDuration => "duration", "时长";
        FRanks => "ranks", "进程数";
        FRacks => "racks", "机柜数";
        FNodes => "nodes", "节点数";
        FNodesPerRack => "nodes per rack", "每机柜节点数";
        FGpusPerNode => "GPUs per node", "每节点 GPU 数";
        FBandwidth => "bandwidth", "带宽";
        FLatency => "latency", "延迟";
        FIntraBandwidth => "intra-node bandwidth", "节点内带宽";
        FIntraLatency => "intra-node latency", "节点内延迟";
        FNodeBandwidth => "node bandwidth", "节点带宽";
        FNodeLatency => "node latency", "节点延迟";
        FRackBandwidth => "rack bandwidth", "机柜带宽";
        FRackLatency => "rack latency", "机柜延迟";
        FNicBandwidth => "NIC bandwidth", "网卡带宽";
        FNicLatency => "NIC latency", "网卡延迟";
        FSpineBandwidth => "spine bandwidth", "主干带宽";
        FSpineLatency => "spine latency", "主干延迟";
        ShareBackward => "backward share", "反向传播占比";
        ShareOverlap => "overlap", "重叠比例";
        // Units.
        UnitNotANumber => "{0} '{1}' is not a number with a unit; expected e.g. {2}", "{0}“{1}”不是带单位的数字；应形如 {2}";
        UnitNotFinite => "{0} '{1}' is not finite", "{0}“{1}”不是有限的数";
        UnitMissing => "{0} '{1}' needs a unit; expected e.g. {2}", "{0}“{1}”缺少单位；应形如 {2}";
        UnitUnknown => "{0} '{1}' has an unknown unit '{3}'; expected e.g. {2}", "{0}“{1}”的单位“{3}”无法识别；应形如 {2}";
        UnitNegative => "{0} '{1}' must not be negative", "{0}“{1}”不能为负数";
        UnitIsNegative => "{0} '{1}' is negative", "{0}“{1}”是负数";
        UnitNotPositive => "{0} '{1}' must be positive; expected e.g. {2}", "{0}“{1}”必须为正数；应形如 {2}";
        UnitTooLarge => "{0} '{1}' is too large", "{0}“{1}”太大";
        // Topology.
        TopoCount => "{0} must be between 1 and {1}, got {2}", "{0}必须在 1 到 {1} 之间，实际为 {2}";
        TopoTooManyRanks => "racks × nodes per rack × GPUs per node must be at most {0}", "机柜数 × 每机柜节点数 × 每节点 GPU 数不能超过 {0}";
        TopoTooManyRailRanks => "nodes × GPUs per node must be at most {0}", "节点数 × 每节点 GPU 数不能超过 {0}";
        TopoRailGpus => "GPUs per node on a rail network must be between 1 and {0} (one NIC, one rail each), got {1}", "轨道网络的每节点 GPU 数必须在 1 到 {0} 之间（每张卡一张网卡、一条轨道），实际为 {1}";
        TopoBandwidthNotPositive => "{0} must be a positive bandwidth, e.g. 100GB/s or 400Gbps", "{0}必须是正的带宽，如 100GB/s 或 400Gbps";
        TopoBandwidthRange => "{0} must lie between 1 B/s and 1 PB/s", "{0}必须在 1 B/s 到 1 PB/s 之间";
        TopoLatencyRange => "{0} must be between 0 and 10 s, e.g. 5us", "{0}必须在 0 到 10 s 之间，如 5us";
        TopoOversubscription => "oversubscription must be between 1 (non-blocking) and 64", "超额订阅比必须在 1（无阻塞）到 64 之间";
        TopoNics => "NICs per node must be between 1 and {0}, got {1}", "每节点网卡数必须在 1 到 {0} 之间，实际为 {1}";
        TopoNicsExceedGpus => "NICs per node ({0}) cannot exceed GPUs per node ({1}): each GPU uses its nearest NIC", "每节点网卡数（{0}）不能超过每节点 GPU 数（{1}）：每张卡使用离它最近的网卡";
        // Faults.
        FaultFactor => "slow link {0}: factor {1} is out of range; expected a number from 0.000001 to 1, e.g. 0.25", "慢链路 {0}：系数 {1} 超出范围；应在 0.000001 到 1 之间，如 0.25";
        FaultNoSuchCable => "slow link {0}: this topology has no such link (its cables are named like {1})", "慢链路 {0}：此拓扑中没有这条链路（这里的链路名形如 {1}）";
        FaultCableTwice => "slow link {0} is given twice", "慢链路 {0} 出现了两次";
        FaultRank => "straggler rank {0} does not exist; expected 0..{1}", "迟到的进程 {0} 不存在；应为 0..{1}";
        FaultDelay => "straggler rank {0}: delay {1} s is out of range; expected 0..{2} s", "迟到的进程 {0}：延迟 {1} s 超出范围；应为 0..{2} s";
        FaultRankTwice => "straggler rank {0} is given twice", "迟到的进程 {0} 出现了两次";
        FaultTooMany => "{0} faults of one kind; at most {1} are allowed", "同一类故障有 {0} 个；最多允许 {1} 个";
        CableNotALink => "'{0}' is not a link; expected FROM-TO, e.g. node0-rack0", "“{0}”不是链路；应写成 起点-终点，如 node0-rack0";
        CableNotAnEnd => "'{0}' is not a link end; expected rankN, nodeN, nodeN.nicK, rackN, railN or spine", "“{0}”不是链路端点；应为 rankN、nodeN、nodeN.nicK、rackN、railN 或 spine";
        // Scenario files.
        FileTooLarge => "the file is larger than {0} KB", "文件超过 {0} KB";
        FileUtf32 => "the file is UTF-32 text; save it as UTF-8 (or UTF-16)", "文件是 UTF-32 文本；请另存为 UTF-8（或 UTF-16）";
        FileOddUtf16 => "the file says it is {0} but has an odd number of bytes", "文件标明是 {0}，但字节数为奇数";
        FileSurrogate => "the file says it is {0} but holds an unpaired surrogate 0x{1}", "文件标明是 {0}，但含有未配对的代理码元 0x{1}";
        FileNul => "the file holds NUL bytes: it is binary, or UTF-16 without a byte-order mark; save it as UTF-8", "文件含有 NUL 字节：它是二进制文件，或是没有字节顺序标记的 UTF-16；请另存为 UTF-8";
        FileNotUtf8 => "the file is not UTF-8 text (byte {0} is not valid); save it as UTF-8", "文件不是 UTF-8 文本（第 {0} 个字节无效）；请另存为 UTF-8";
        FileNotAScenario => "not a scenario file (line {0}, column {1}): {2}", "不是场景文件（第 {0} 行第 {1} 列）：{2}";
        JsonSyntax => "this is not JSON (a stray or missing character, comma, bracket or quote)", "这里不是合法的 JSON（多出或缺少字符、逗号、括号或引号）";
        JsonTruncated => "the text ends before the JSON does", "文本在 JSON 结束之前就结束了";
        JsonMissingField => "the field '{0}' is missing", "缺少字段 “{0}”";
        JsonUnknownName => "'{0}' is not a name a scenario knows (an algorithm or topology kind)", "场景不认识名称 “{0}”（算法或拓扑类型）";
        JsonUnknownField => "a scenario has no field '{0}' (misspelt? the file is refused rather than its value silently lost)", "场景没有字段 “{0}”（拼错了？为免它的值被悄悄丢掉，整个文件不予导入）";
        JsonWrongValue => "a value has the wrong kind (a text for a number, a negative count…)", "某个值的类型不对（例如用文本代替数字，或计数为负）";
        // Scenarios.
        ScSize => "size must be between 1 B and 1 TB, got {0} bytes", "大小必须在 1 B 到 1 TB 之间，实际为 {0} 字节";
        ScSegments => "segments must be between 1 and {0}, got {1}", "分段数必须在 1 到 {0} 之间，实际为 {1}";
        ScGamma => "gamma (reduction cost) must be between 0 and {0} seconds per byte", "γ（归约开销）必须在每字节 0 到 {0} s 之间";
        ScOverMemory => "{0} on {1} ranks{2} would need about {3} of memory ({4} transfers, {5} buffer cells); the limit is {6}.", "{0}在 {1} 个进程上{2}约需 {3} 内存（{4} 次传输，{5} 个缓冲单元）；上限为 {6}。";
        ScOverWork => "{0} on {1} ranks{2} would re-share links about {3} times ({4} transfers, many sharing one link); the limit is {5}.", "{0}在 {1} 个进程上{2}约需重新分配链路带宽 {3} 次（{4} 次传输，许多共用一条链路）；上限为 {5}。";
        ScWithSegments => " with {0} segments", "（{0} 段）";
        ScShrink => " To shrink the run use {0}.", "要缩小规模，可用{0}。";
        ScShrinkSegments => "at most {0} segments", "最多 {0} 段";
        ScShrinkRanks => "at most {0} ranks", "最多 {0} 个进程";
        ScShrinkAlgorithm => "another algorithm", "另一种算法";
        ScOr => ", or ", "，或";
        ScMemoryOver => "stopped: the page's memory passed the lab's {0}. Reload the page to free it, or use fewer GPUs or segments, or another algorithm (the command line runs it without details)", "已停止：页面内存超过实验室的 {0} 上限。可重新加载页面释放内存，或用更少的卡或段数，或另一种算法（命令行不记录细节，可以运行）";
        ScAutoStep => "auto runs every algorithm; it cannot be stepped as one run", "auto 会运行每一种算法，不能作为一次运行逐步推进";
        ScNoRun => "the simulation ended without a run (a bug: please report it)", "模拟结束时没有运行结果（这是缺陷，请报告）";
        ScUnverified => "a run did not verify (a bug: please report it)", "一次运行未通过校验（这是缺陷，请报告）";
        ScCannotTake => "the topology cannot take {0} GPUs", "该拓扑无法容纳 {0} 张卡";
        ScParameters => "parameters must be between 1 and 10^13", "参数量必须在 1 到 10^13 之间";
        ScGradients => "the gradients, {0} parameters × {1} B, are larger than the largest allreduce the simulator runs (1 TB): at most {2} parameters of {1} B", "梯度（{0} 个参数 × {1} B）超过了模拟器能运行的最大 AllReduce（1 TB）：每个梯度 {1} B 时最多 {2} 个参数";
        ScBytesPerGradient => "bytes per gradient must be 1, 2, 4 or 8", "每个梯度的字节数必须是 1、2、4 或 8";
        ScCompute => "compute time must be more than 0 and at most 1 hour", "计算时间必须大于 0 且不超过 1 小时";
        ScShare => "{0} must be between 0 and 1", "{0}必须在 0 到 1 之间";
        ScInputBytes => "input bytes per GPU must be 0 or more", "每张卡的输入字节数不能为负";
        ScStorage => "storage bandwidth must be positive", "存储带宽必须为正数";
        ScSweepSizes => "sizes must satisfy 1 ≤ min ≤ max, got min {0} and max {1}", "大小必须满足 1 ≤ 最小值 ≤ 最大值，实际最小值 {0}、最大值 {1}";
        ScSweepFactor => "the step factor must be at least 2, got {0}", "步进倍数至少为 2，实际为 {0}";
        ScSweepOverBudget => "the sweep's {0} sizes would take about {1} times what a sweep may (a minute or two); sweep fewer sizes or fewer ranks", "这次扫描的 {0} 个消息大小约需允许时长（一两分钟）的 {1} 倍；请减少消息大小的个数或卡数";
        // Systems (the nccl model).
        SysUnknown => "unknown system '{0}'; expected one of: {1}", "未知的系统“{0}”；应为以下之一：{1}";
        SysNotAFile => "not a system file (line {0}, column {1})", "不是系统文件（第 {0} 行第 {1} 列）";
        SysNodes => "nodes must be between 1 and {0}, got {1}", "节点数必须在 1 到 {0} 之间，实际为 {1}";
        SysGpusPerNode => "GPUs per node must be between 2 and 8, got {0}", "每节点 GPU 数必须在 2 到 8 之间，实际为 {0}";
        SysField => "{0} must lie between {1} and {2}, got {3}", "{0} 必须在 {1} 到 {2} 之间，实际为 {3}";
        SysNics => "nics_per_node must be between 1 and 64, got {0}", "nics_per_node 必须在 1 到 64 之间，实际为 {0}";
        SysChannels => "channels must be between 1 and 64 (nvls_channels between 0 and 64)", "channels 必须在 1 到 64 之间（nvls_channels 在 0 到 64 之间）";
        SysLl128 => "ll128 needs NVLink (NCCL enables LL128 only up to NVLink paths)", "ll128 需要 NVLink（NCCL 只在 NVLink 路径上启用 LL128）";
        SysEmpty => "size must be at least 1 byte", "大小至少为 1 字节";
        SysTooLarge => "size must be at most 1 TB, got {0} bytes", "大小最多为 1 TB，实际为 {0} 字节";
        SysNoCandidate => "no candidate could run", "没有可运行的候选方案";
        SysScaling => "the nccl model predicts speedup up to {0} GPUs, got {1}", "NCCL 模型只预测最多 {0} 张卡的加速比，实际为 {1}";
        SysOneGpu => "one GPU has no allreduce", "一张卡没有 AllReduce 可做";
        SysUnverified => "internal: the schedule did not verify (a bug: please report it)", "内部错误：调度未通过校验（这是缺陷，请报告）";
        // The nccl-tests fit.
        FitTooFew => "the fit needs at least {0} rows of different sizes; the paste has {1}", "拟合至少需要 {0} 行不同大小的数据；粘贴内容只有 {1} 行";
        FitRanks => "the table's busbw/algbw ratio says {0} GPUs, but the chosen system has {1}", "表中 busbw/algbw 的比值表明有 {0} 张卡，但所选系统有 {1} 张";
        // Links and imported files (the lab's own checks).
        ShGamma => "the lab's controls cannot show a reduction cost (gamma)", "实验室的控件无法显示归约开销（γ）";
        ShOversubscription => "the lab's controls cannot show oversubscription", "实验室的控件无法显示超额订阅";
        ShShape => "the lab's controls cannot show this cluster shape", "实验室的控件无法显示这种集群形状";
        ShSegments => "on {1} GPUs the lab's segments go up to {0}; this file asks for {2}", "实验室在 {1} 张卡上最多运行 {0} 个分段；这个文件要求 {2} 个";
        ShValue => "the lab's controls hold whole {3}: a {1} of {2} {3} for the {0} would be rounded to {4} {3}; the command line takes it as it is", "实验室的控件只取整数 {3}：{0}的{1} {2} {3} 会被取整为 {4} {3}；命令行可以按原值运行";
        ShRailShape => "the lab's controls cannot show this rail shape", "实验室的控件无法显示这种轨道网络形状";
        ShNoScenario => "the file describes no scenario", "文件没有描述任何场景";
        ShTooLong => "the link is longer than {0} characters", "链接超过 {0} 个字符";
        ShTwice => "{0} is given twice", "{0} 出现了两次";
        ShNotOneOf => "{0} must be one of {1}", "{0} 必须是以下之一：{1}";
        ShOnOrOff => "{0} must be on or off", "{0} 必须是 on 或 off";
        ShTopo => "topo must be cluster, rail or uniform", "topo 必须是 cluster、rail 或 uniform";
        ShOutOfRange => "{0} must be from {1} to {2}", "{0} 必须在 {1} 到 {2} 之间";
        ShNotInTheLab => "the lab's controls cannot show this file (the command line runs it as it is): {0}", "实验室的控件无法显示这个文件（命令行可以原样运行它）：{0}";
        ShNotAnAlgorithm => "{0} is not an algorithm; it is one of: {1}", "{0} 不是算法，应为以下之一：{1}";
        ShSizeNotBytes => "size must be a number of bytes", "size 必须是字节数";
        ShListLength => "{0} must list one to three values", "{0} 必须列出一到三个值";
        ShStep => "step must be a whole number up to {0}", "step 必须是不超过 {0} 的整数";
        ShUnknownKey => "the link has a parameter the lab does not know: '{0}'", "链接中有实验室不认识的参数：“{0}”";
        ShBadSlow => "slow: '{0}' is not CABLE:FACTOR (e.g. node0-rack0:0.25)", "slow：“{0}”不是 线缆:比例（例如 node0-rack0:0.25）";
        ShBadLate => "late: '{0}' is not RANK:DELAY (e.g. 3:200us)", "late：“{0}”不是 卡号:延迟（例如 3:200us）";
        ShNvls => "nvls needs nccl (the system it applies to)", "nvls 需要 nccl（它所作用的系统）";
        ShUnreadable => "the file could not be read", "无法读取该文件";
    }
}
