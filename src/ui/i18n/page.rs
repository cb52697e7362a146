//! The interface's texts for the page: masthead, navigation, language switch: one row per key, English then Chinese.
//!
//! The rows join the one [`Key`](super::Key) table (see the chain in `mod.rs`): a row lacking
//! either text does not parse, and a key no row declares does not exist.

area! { $ page_rows {
    // The page.
    ChapterTitle => "Chapter 1 · Cluster training: an overview", "第 1 章 · 集群训练概述";
    Lede => "Why 8 GPUs are not 8× as fast as one, what a training cluster is made of, and how Ring and Tree AllReduce exchange gradients. Every figure below is a live simulation: change an input and the result follows at once.", "为什么 8 张卡不是单卡的 8 倍速度、训练集群由哪几层组成、环形和树形 AllReduce 如何交换梯度。下面每张图都是实时模拟：改一个输入，结果立刻跟着变。";
    Contents => "Contents", "目录";
    OpenLab => "Open the full lab", "打开完整实验室";
    PresentEnter => "Present", "演示模式";
    PresentLeave => "Leave presentation", "退出演示";
    PresentKey => "Presentation mode: full width, large labels, controls in a strip (key P; Esc leaves)", "演示模式：全宽、大字号、控件收成一条（按 P 键；Esc 退出）";
    SectionNotLoaded => "This part of the page could not be loaded (its WebAssembly module did not arrive). Reload the page to try again.", "页面的这一部分未能加载（它的 WebAssembly 模块没有取到）。请重新加载页面再试。";
    LabHeading => "The full lab: every control", "完整实验室：所有控件";
    LabIntro => "Everything above, and more: ten algorithms (NCCL's own ring and tree among them), any cluster shape, several NICs per node, rail-optimized networks, play and scrub through a run.", "上面的一切，以及更多：十种算法（包括 NCCL 自己的环和树）、任意集群形状、每节点多块网卡、轨道优化网络、逐帧播放和拖动。";
    SwitchLanguage => "Language: English. Switch to Chinese", "语言：中文。切换到英文";
    OtherLanguageName => "中文", "English";
    Chapter => "The chapter", "原文";
    Simulation => "The simulation", "模拟";
    Gpus => "GPUs", "GPU 数量";
    Step => "Step", "步骤";
    Previous => "Previous step", "上一步";
    Next => "Next step", "下一步";
    Play => "Play", "播放";
    Pause => "Pause", "暂停";
    Figure => "Figure", "图";
    ComputedBy => "computed by simulating the allreduce", "由模拟 AllReduce 计算得出";
} }
