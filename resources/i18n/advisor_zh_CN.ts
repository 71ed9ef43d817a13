<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="30"/>
        <source>About GPU Scaling Advisor</source>
        <translation>关于多卡训练顾问</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="34"/>
        <source>GPU Scaling Advisor</source>
        <translation>多卡训练顾问</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="35"/>
        <source>Multi-GPU training advisor</source>
        <translation>GPU Scaling Advisor · 多卡训练是否值得</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="49"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="60"/>
        <source>Will more GPUs make your training faster, by how much, and is it worth the money? Rules and numbers cite the article&apos;s facts F01–F32.</source>
        <translation>多加显卡能让训练更快吗？快多少？值不值得花这笔钱？规则与数字均引用原文事实 F01–F32。</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="62"/>
        <source>Built-in prices as of</source>
        <translation>内置价格日期（as_of）</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="63"/>
        <source>Projection parameters fitted on</source>
        <translation>预测模型参数拟合日期</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="64"/>
        <source>Licences of what ships with it</source>
        <translation>许可证（随附或安装的组件）</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="68"/>
        <source>%1 undated</source>
        <translation>另有 %1 项未注明日期</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="73"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/about_dialog.py" line="80"/>
        <source>%1 (Qt %2 running)</source>
        <translation>%1（运行中的 Qt 为 %2）</translation>
    </message>
</context>
<context>
    <name>Choices</name>
    <message>
        <location filename="../../ui/forms/choices.py" line="12"/>
        <source>Image classification</source>
        <translation>图像分类</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="13"/>
        <source>Object detection</source>
        <translation>目标检测</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="14"/>
        <source>Segmentation</source>
        <translation>图像分割</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="15"/>
        <source>Speech recognition</source>
        <translation>语音识别</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="16"/>
        <source>NLP (language model, fine-tuning)</source>
        <translation>NLP（语言模型、微调）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="17"/>
        <source>Large language model</source>
        <translation>大语言模型</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="18"/>
        <source>Recommendation / ranking</source>
        <translation>推荐 / 排序</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="19"/>
        <source>GAN</source>
        <translation>GAN（生成对抗网络）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="20"/>
        <source>Reinforcement learning</source>
        <translation>强化学习</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="21"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="22"/>
        <source>Diffusion model (UNet / DiT)</source>
        <translation>扩散模型（UNet / DiT）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="24"/>
        <source>UNet (SD 1.x/2.x, SDXL)</source>
        <translation>UNet（SD 1.x/2.x、SDXL）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="25"/>
        <source>DiT (PixArt, SD3, Flux)</source>
        <translation>DiT（PixArt、SD3、Flux）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="26"/>
        <source>On every GPU</source>
        <translation>放在每张 GPU 上</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="27"/>
        <source>In host RAM, moved per batch</source>
        <translation>放在主机内存，按批次搬入</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="28"/>
        <source>Cached beforehand (not loaded)</source>
        <translation>预先缓存（不加载）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="29"/>
        <source>On every GPU (one copy each)</source>
        <translation>每张 GPU 上各一份</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="30"/>
        <source>In host RAM</source>
        <translation>放在主机内存</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="31"/>
        <source>Adafactor (factored, Adam-family)</source>
        <translation>Adafactor（分解式，Adam 系）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="33"/>
        <source>Unfused (Hugging Face Trainer)</source>
        <translation>不分块（Hugging Face Trainer）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="34"/>
        <source>Chunked (torchtune, Liger, Unsloth)</source>
        <translation>分块（torchtune、Liger、Unsloth）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="36"/>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="37"/>
        <source>TF32</source>
        <translation>TF32</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="38"/>
        <source>FP16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="39"/>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="40"/>
        <source>Mixed precision (AMP)</source>
        <translation>混合精度（AMP）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="41"/>
        <source>FP8 (Transformer Engine / torchao)</source>
        <translation>FP8（Transformer Engine / torchao）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="42"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="44"/>
        <source>Samples per second</source>
        <translation>每秒样本数</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="45"/>
        <source>Images per second</source>
        <translation>每秒图像数</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="46"/>
        <source>Tokens per second</source>
        <translation>每秒 token 数</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="47"/>
        <source>Frames per second (speech)</source>
        <translation>每秒帧数（语音）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="48"/>
        <source>Audio samples per second</source>
        <translation>每秒音频采样点数</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="50"/>
        <source>Per GPU (global batch grows)</source>
        <translation>每卡不变（全局变大）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="51"/>
        <source>Global (per-GPU batch shrinks)</source>
        <translation>全局不变（每卡变小）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="53"/>
        <source>Fixed (crops, volumes, packed)</source>
        <translation>固定（裁剪、体数据、打包）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="54"/>
        <source>Variable (sizes, lengths differ)</source>
        <translation>可变（尺寸、长度不一）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="56"/>
        <source>Together on every GPU</source>
        <translation>每卡一起训练</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="57"/>
        <source>Take turns (GPUs wait)</source>
        <translation>轮流训练（显卡等待）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="59"/>
        <source>Starved (single-threaded reading)</source>
        <translation>饿等（单线程读盘）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="60"/>
        <source>Typical (default data loader)</source>
        <translation>一般（默认数据加载）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="61"/>
        <source>Tuned (workers, fast storage, prefetch)</source>
        <translation>已优化（多 worker、快速存储、预取）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="63"/>
        <source>Hard disk</source>
        <translation>机械硬盘</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="64"/>
        <source>SATA SSD</source>
        <translation>SATA 固态硬盘</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="65"/>
        <source>NVMe SSD</source>
        <translation>NVMe 固态硬盘</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="66"/>
        <source>Network storage</source>
        <translation>网络存储</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="67"/>
        <source>In memory (RAM)</source>
        <translation>内存（RAM）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="69"/>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="70"/>
        <source>ZeRO stage 1</source>
        <translation>ZeRO 阶段 1</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="71"/>
        <source>ZeRO stage 2</source>
        <translation>ZeRO 阶段 2</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="72"/>
        <source>ZeRO stage 3</source>
        <translation>ZeRO 阶段 3</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="73"/>
        <source>FSDP</source>
        <translation>FSDP</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="75"/>
        <source>Tensor (model) parallel</source>
        <translation>模型并行（张量并行）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="76"/>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="89"/>
        <source>PCIe 3.0</source>
        <translation>PCIe 3.0</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="90"/>
        <source>PCIe 4.0</source>
        <translation>PCIe 4.0</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="91"/>
        <source>PCIe 5.0</source>
        <translation>PCIe 5.0</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="92"/>
        <source>NVLink bridge (pairs)</source>
        <translation>NVLink 桥接（两两相连）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="93"/>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="94"/>
        <source>NVSwitch (NVLink all-to-all)</source>
        <translation>NVSwitch（NVLink 全互联）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="95"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="96"/>
        <source>10 Gb Ethernet</source>
        <translation>万兆以太网（10G）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="97"/>
        <source>25 Gb Ethernet</source>
        <translation>25G 以太网</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="98"/>
        <source>100 Gb Ethernet</source>
        <translation>100G 以太网</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="99"/>
        <source>RoCE 100 Gb/s</source>
        <translation>RoCE 100 Gb/s</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="101"/>
        <source>InfiniBand EDR</source>
        <translation>InfiniBand（IB）EDR</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="102"/>
        <source>InfiniBand HDR</source>
        <translation>InfiniBand（IB）HDR</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="103"/>
        <source>InfiniBand NDR</source>
        <translation>InfiniBand（IB）NDR</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="105"/>
        <source>Bare metal</source>
        <translation>裸金属</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="106"/>
        <source>Full pass-through</source>
        <translation>整卡直通</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="107"/>
        <source>NVIDIA vGPU (shared cards)</source>
        <translation>NVIDIA vGPU（共享物理卡）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="108"/>
        <source>Unknown</source>
        <translation>不清楚</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="110"/>
        <source>Turing (RTX 20, T4)</source>
        <translation>Turing（RTX 20 系、T4）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="111"/>
        <source>Volta (V100)</source>
        <translation>Volta（V100）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="112"/>
        <source>Ampere (A100, RTX 30, A10)</source>
        <translation>Ampere（A100、RTX 30 系、A10）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="113"/>
        <source>Ada (RTX 40, L4, L40)</source>
        <translation>Ada（RTX 40 系、L4、L40）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="114"/>
        <source>Hopper (H100, H200, H20)</source>
        <translation>Hopper（H100、H200、H20）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="115"/>
        <source>Blackwell (B200, RTX 50)</source>
        <translation>Blackwell（B200、RTX 50 系）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="117"/>
        <source>Open-air (gaming coolers)</source>
        <translation>开放式风扇（游戏卡）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="118"/>
        <source>Blower (turbo cards)</source>
        <translation>涡轮散热（涡轮卡）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="119"/>
        <source>Server chassis</source>
        <translation>服务器机箱风道</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="120"/>
        <source>Liquid cooling</source>
        <translation>水冷</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="122"/>
        <source>Own hardware</source>
        <translation>自建（自有硬件）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="123"/>
        <source>Cloud rental</source>
        <translation>云实例租用</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="124"/>
        <source>Compare both</source>
        <translation>两者比较</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="125"/>
        <source>CNY (¥)</source>
        <translation>人民币（¥）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="126"/>
        <source>USD ($)</source>
        <translation>美元（$）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="132"/>
        <source>Research with a deadline</source>
        <translation>科研（有截止日期）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="133"/>
        <source>Product: a day earns revenue</source>
        <translation>产品（早一天上线多赚一天钱）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="137"/>
        <source>Learning: time has no money value</source>
        <translation>个人学习（时间不折算成钱）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="144"/>
        <source>— not set —</source>
        <translation>— 未设置 —</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="74"/>
        <source>FSDP hybrid shard (sharded inside a machine)</source>
        <translation>FSDP 混合分片（在单台机器内分片）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="78"/>
        <source>Selective (attention scores recomputed)</source>
        <translation>选择性（重算注意力分数）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="79"/>
        <source>Full (every layer recomputed)</source>
        <translation>完整（每层都重算）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="138"/>
        <source>Off (every activation kept)</source>
        <translation>关闭（保留全部激活）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="143"/>
        <source>Not said yet (the article&apos;s table rates it)</source>
        <translation>尚未说明（按文章的判断表评级）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="127"/>
        <source>EUR (€)</source>
        <translation>欧元（€）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="129"/>
        <source>China (CN)</source>
        <translation>中国（CN）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="130"/>
        <source>United States (US)</source>
        <translation>美国（US）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="131"/>
        <source>European Union (EU)</source>
        <translation>欧盟（EU）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="145"/>
        <source>The market&apos;s currency</source>
        <translation>按市场的货币</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="146"/>
        <source>Automatic: the currency&apos;s, else this computer&apos;s (%1)</source>
        <translation>自动：按货币对应的市场，否则按本机区域设置（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="81"/>
        <source>LoRA (16-bit frozen weights, adapters trained)</source>
        <translation>LoRA（权重以 16 位冻结，训练适配器）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="82"/>
        <source>QLoRA (4-bit frozen weights, adapters trained)</source>
        <translation>QLoRA（权重以 4 位冻结，训练适配器）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="83"/>
        <source>SGD with momentum (SGD-like)</source>
        <translation>带动量的 SGD（SGD 类）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="84"/>
        <source>AdamW (Adam-family)</source>
        <translation>AdamW（Adam 类）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="85"/>
        <source>8-bit AdamW (Adam-family)</source>
        <translation>8 位 AdamW（Adam 类）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="86"/>
        <source>Optimizer states and gradients (ZeRO-Offload)</source>
        <translation>优化器状态和梯度（ZeRO-Offload）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="87"/>
        <source>Optimizer states, gradients and weights</source>
        <translation>优化器状态、梯度和权重</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="100"/>
        <source>RoCE 400 Gb/s</source>
        <translation>RoCE 400 Gb/s</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="140"/>
        <source>Full (every weight trained)</source>
        <translation>全参数（训练全部权重）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/choices.py" line="141"/>
        <source>Off (every state on the GPU)</source>
        <translation>关闭（全部状态留在 GPU 上）</translation>
    </message>
</context>
<context>
    <name>Compare</name>
    <message>
        <location filename="../../ui/compare/table.py" line="25"/>
        <source>★ on the front</source>
        <translation>★ 在前沿上</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="26"/>
        <source>dominated by %1</source>
        <translation>劣于 %1</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="27"/>
        <source>same as %1</source>
        <translation>同 %1</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="28"/>
        <source>does not fit</source>
        <translation>显存放不下</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="29"/>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="30"/>
        <source>[%1] at %2 GPUs</source>
        <translation>[%1] %2 卡</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="31"/>
        <source>[%1] at 1 GPU</source>
        <translation>[%1] 单卡</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="44"/>
        <location filename="../../ui/compare/table.py" line="32"/>
        <source>%1 h a month</source>
        <translation>每月 %1 小时</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="14"/>
        <source>Answers</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="16"/>
        <source>Fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="17"/>
        <source>Cheapest a month</source>
        <translation>每月最便宜</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="18"/>
        <source>Meets the deadline, cheapest</source>
        <translation>赶得上截止时间且最便宜</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="19"/>
        <source>Fastest within the monthly budget</source>
        <translation>每月预算内最快</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="20"/>
        <source>Best net value</source>
        <translation>净收益最高</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="22"/>
        <source>Click a point or a row to see its details.</source>
        <translation>点击图中的点或表中的行查看详情。</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="23"/>
        <source>Prices older than 12 months (check them)</source>
        <translation>超过 12 个月的价格（请核实）</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="24"/>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="26"/>
        <source>GPUs</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="27"/>
        <source>Machines</source>
        <translation>机器数</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="28"/>
        <source>Speed-up (band)</source>
        <translation>加速比（区间）</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="29"/>
        <source>Time per run</source>
        <translation>每次训练时间</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="30"/>
        <source>Runs a month one set can do</source>
        <translation>一套硬件每月能跑的次数</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="31"/>
        <source>Cost per run</source>
        <translation>每次成本</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="32"/>
        <source>Cost per month</source>
        <translation>每月成本</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="33"/>
        <source>Up front (cards, machines, tax)</source>
        <translation>前期投入（显卡、整机、税费）</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="34"/>
        <source>Buying the same instead (up front)</source>
        <translation>改为购买同样配置（前期投入）</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="35"/>
        <source>Owning pays above</source>
        <translation>自建回本线</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="36"/>
        <source>Net value a month</source>
        <translation>每月净收益</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="37"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="38"/>
        <source>The rules on this option</source>
        <translation>规则对该选项的结论</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="42"/>
        <source>%1 over %2 (your setup at its fewest GPUs)</source>
        <translation>相对 %2（你的配置的最少卡数）：%1</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="43"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="45"/>
        <source>own</source>
        <translation>自建</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="46"/>
        <source>rented</source>
        <translation>租用</translation>
    </message>
    <message>
        <location filename="../../ui/compare/details.py" line="47"/>
        <source>its own pick is dominated by %1: not recommended</source>
        <translation>它自己选的卡数劣于 %1：不推荐</translation>
    </message>
</context>
<context>
    <name>ComparePage</name>
    <message>
        <location filename="../../ui/compare/page.py" line="171"/>
        <source>Comparing the setups…</source>
        <translation>正在对比各配置…</translation>
    </message>
    <message>
        <location filename="../../ui/compare/page.py" line="189"/>
        <source>Compare setups</source>
        <translation>配置对比</translation>
    </message>
    <message>
        <location filename="../../ui/compare/page.py" line="192"/>
        <source>Time per run against cost per month</source>
        <translation>单次时间与每月成本</translation>
    </message>
    <message>
        <location filename="../../ui/compare/page.py" line="193"/>
        <source>The chosen setup in detail</source>
        <translation>所选方案的详细情况</translation>
    </message>
    <message>
        <location filename="../../ui/compare/page.py" line="194"/>
        <source>Setups compared</source>
        <translation>参与比较的方案</translation>
    </message>
    <message>
        <location filename="../../ui/compare/page.py" line="199"/>
        <source>Your setup beside more of the same cards, the same GPUs rented, the catalog&apos;s ready setups and your profile&apos;s alternatives: time per run against cost per month.</source>
        <translation>把你的配置与同款卡加量、租用同款卡、目录中的现成配置以及配置文件中的备选方案放在一起：对比每次训练时间与每月成本。</translation>
    </message>
    <message>
        <location filename="../../ui/compare/page.py" line="218"/>
        <source>The setups cannot be compared with these answers: %1</source>
        <translation>按当前的回答无法对比各配置：%1</translation>
    </message>
    <message>
        <location filename="../../ui/compare/page.py" line="221"/>
        <source>The setups could not be compared because of an internal error; the details are in the log.</source>
        <translation>由于内部错误无法对比各配置；详情见日志。</translation>
    </message>
    <message>
        <location filename="../../ui/compare/page.py" line="229"/>
        <source>Market %1 · %2 · %3 options, %4 setups. ★ = on the Pareto front: nothing is both faster and cheaper. Click a point or a row for its details.</source>
        <translation>市场 %1 · %2 · %3 个选项，%4 种配置。★ = 在帕累托前沿上：没有既更快又更便宜的选项。点击图中的点或表中的行查看详情。</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="15"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="16"/>
        <source>Option</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="17"/>
        <source>GPUs</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="18"/>
        <source>Speed-up (band)</source>
        <translation>加速比（区间）</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="19"/>
        <source>Hours per run</source>
        <translation>每次小时数</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="20"/>
        <source>Cost per run</source>
        <translation>每次成本</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="21"/>
        <source>Cost per month</source>
        <translation>每月成本</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="22"/>
        <source>Owning pays above</source>
        <translation>自建回本线</translation>
    </message>
    <message>
        <location filename="../../ui/compare/table.py" line="23"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>Document</name>
    <message>
        <location filename="../../ui/window/document.py" line="77"/>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="79"/>
        <source>%1 (draft)</source>
        <translation>%1（草稿）</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="81"/>
        <source>GPU Scaling Advisor</source>
        <translation>多卡训练顾问</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="98"/>
        <source>Unsaved answers</source>
        <translation>答案未保存</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="99"/>
        <source>The answers have changes that are not saved. Save them first?</source>
        <translation>答案有尚未保存的修改。先保存吗？</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="110"/>
        <source>The file changed on disk</source>
        <translation>文件在磁盘上已被修改</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="111"/>
        <source>%1 was changed, replaced or removed since it was opened here. Overwrite it with these answers, save them under another name, or reload the file?</source>
        <translation>%1 在这里打开之后已被修改、替换或删除。用这些答案覆盖它、另存为其他名称，还是重新载入该文件？</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="115"/>
        <source>Overwrite</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="117"/>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="119"/>
        <source>Reload</source>
        <translation>重新载入</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="148"/>
        <source>Profiles (*.yaml *.yml *.json);;All files (*)</source>
        <translation>配置文件 (*.yaml *.yml *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="168"/>
        <source>Open profile</source>
        <translation>打开配置</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="180"/>
        <location filename="../../ui/window/document.py" line="231"/>
        <source>Cannot open the profile</source>
        <translation>无法打开配置</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="197"/>
        <source>No results: this profile is a draft. Finish the marked answers to see the results.</source>
        <translation>没有结果：这个配置是草稿。完成标出的答案后即可看到结果。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="199"/>
        <source>A draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="213"/>
        <source>The profile has problems</source>
        <translation>配置有问题</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="215"/>
        <source>The file was not changed. Fix the answers and save under a new name.</source>
        <translation>文件没有被改动。请修正答案后另存为新文件。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="232"/>
        <source>The file no longer exists:
%1</source>
        <translation>文件已不存在：
%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="261"/>
        <source>Save profile</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="270"/>
        <location filename="../../ui/window/document.py" line="275"/>
        <source>Cannot save yet</source>
        <translation>暂时无法保存</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="271"/>
        <source>Some answers are not valid yet: they can be saved as a draft, which is YAML. Choose a name ending in .yaml.</source>
        <translation>有些答案尚未有效：可以保存为草稿，草稿是 YAML 格式。请选择以 .yaml 结尾的文件名。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="276"/>
        <source>Choose a new name: the file with problems is kept as it was.</source>
        <translation>请另选文件名：有问题的原文件保持原样。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="301"/>
        <source>Cannot save the profile</source>
        <translation>无法保存配置</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="309"/>
        <source>Saved %1 as a draft: %2 answers are not valid yet</source>
        <translation>已将 %1 保存为草稿：%2 个答案尚未有效</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="310"/>
        <location filename="../../ui/window/document.py" line="469"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="322"/>
        <source>Replace a read-only file?</source>
        <translation>替换只读文件？</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="323"/>
        <source>%1 is read-only. Replace it anyway?</source>
        <translation>%1 是只读文件。仍要替换吗？</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="357"/>
        <source>Answers of other sessions</source>
        <translation>其他会话的答案</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="358"/>
        <source>The answers of %1 more sessions that ended without being saved are kept. File &gt; Recover answers… opens them:
%2</source>
        <translation>另有 %1 个未保存就结束的会话，其答案已保留。用“文件 &gt; 恢复答案…”打开：
%2</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="370"/>
        <source>Recover answers</source>
        <translation>恢复答案</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="371"/>
        <source>Autosaved answers (autosave*.yaml)</source>
        <translation>自动保存的答案 (autosave*.yaml)</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="381"/>
        <source>Previous answers could not be restored</source>
        <translation>无法恢复上次的答案</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="382"/>
        <source>The autosaved answers were damaged (%1). They were kept as %2; starting with a new profile.</source>
        <translation>自动保存的答案已损坏（%1）。原文件已保留为 %2；现在从新配置开始。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="428"/>
        <source>Restored the answers of the last session.</source>
        <translation>已恢复上次的答案。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="436"/>
        <location filename="../../ui/window/document.py" line="440"/>
        <location filename="../../ui/window/document.py" line="444"/>
        <location filename="../../ui/window/document.py" line="450"/>
        <location filename="../../ui/window/document.py" line="467"/>
        <source>Export PDF</source>
        <translation>导出 PDF</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="437"/>
        <source>The PDF report is not available in this build.</source>
        <translation>此版本未包含 PDF 报告功能。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="440"/>
        <source>The results are not ready yet.</source>
        <translation>结果尚未算好。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="445"/>
        <source>%1 answers are not valid: the results on screen belong to earlier answers. Fix the marked answers first.</source>
        <translation>有 %1 个答案无效：屏幕上的结果属于之前的答案。请先改正标出的答案。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="475"/>
        <location filename="../../ui/window/document.py" line="492"/>
        <location filename="../../ui/window/document.py" line="510"/>
        <source>Import nvidia-smi</source>
        <translation>导入 nvidia-smi</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="476"/>
        <source>The nvidia-smi import is not available in this build.</source>
        <translation>此版本未包含 nvidia-smi 导入功能。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="498"/>
        <source>The import changes none of the answers.</source>
        <translation>导入不会改变任何答案。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="503"/>
        <source>Imported: %1 answers changed (Edit &gt; Undo takes them back).</source>
        <translation>已导入：改变了 %1 个答案（“编辑 &gt; 撤销”可以撤回）。</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="511"/>
        <source>The import changes these answers:</source>
        <translation>导入会改变这些答案：</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="513"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../../ui/window/document.py" line="211"/>
        <source>No results: the opened file has problems. Fix the marked answers to see the results for it.</source>
        <translation>没有结果：打开的文件有问题。请修改标出的答案，才能看到它的结果。</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="32"/>
        <source>Unexpected error</source>
        <translation>意外错误</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="33"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="34"/>
        <source>Show details</source>
        <translation>显示详情</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="35"/>
        <source>Hide details</source>
        <translation>隐藏详情</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="36"/>
        <source>Copy details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="37"/>
        <source>Open log folder</source>
        <translation>打开日志文件夹</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="38"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="39"/>
        <source>Copied: paste it into your report of the problem.</source>
        <translation>已复制：请粘贴到你的问题报告中。</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="49"/>
        <source>Something went wrong: %1

The application keeps running. No log could be written (the folder %2 cannot be written).</source>
        <translation>出错了：%1

程序仍在运行。无法写入日志（文件夹 %2 无法写入）。</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/error_dialog.py" line="54"/>
        <source>Something went wrong: %1

The application keeps running. The details were written to the log file:
%2</source>
        <translation>出错了：%1

程序会继续运行。详细信息已写入日志文件：
%2</translation>
    </message>
</context>
<context>
    <name>Fields</name>
    <message>
        <location filename="../../ui/forms/editors.py" line="41"/>
        <source>optional</source>
        <translation>可不填</translation>
    </message>
    <message>
        <location filename="../../ui/forms/editors.py" line="42"/>
        <source>%1 (custom)</source>
        <translation>%1（自定义）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/editors.py" line="314"/>
        <source>None: my own model (its size typed below)</source>
        <translation>无：我自己的模型（在下方填写规模）</translation>
    </message>
    <message>
        <location filename="../../ui/forms/editors.py" line="315"/>
        <source>Search: name or id</source>
        <translation>搜索：名称或 id</translation>
    </message>
    <message>
        <location filename="../../ui/forms/editors.py" line="316"/>
        <source>%1 M parameters · %2 · %3</source>
        <translation>%1 百万参数 · %2 · %3</translation>
    </message>
    <message>
        <location filename="../../ui/forms/field_spec.py" line="25"/>
        <source>Range: %1</source>
        <translation>范围：%1</translation>
    </message>
    <message>
        <location filename="../../ui/forms/field_spec.py" line="26"/>
        <source>May be left empty.</source>
        <translation>可以留空。</translation>
    </message>
    <message>
        <location filename="../../ui/forms/editors.py" line="223"/>
        <source>Custom GPU… (enter its specs)</source>
        <translation>自定义显卡…（填写参数）</translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <location filename="../../ui/dialogs/help.py" line="64"/>
        <source>User guide</source>
        <translation>使用指南</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/help.py" line="64"/>
        <source>README</source>
        <translation>自述文件 README</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/help.py" line="71"/>
        <source>The README is not installed with this copy of the app.</source>
        <translation>这份应用没有安装自述文件（README）。</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/help.py" line="72"/>
        <source>The user guide is not installed with this copy of the app. The README of the project describes the same steps.</source>
        <translation>此安装中没有附带使用指南。项目的 README 介绍了相同的步骤。</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/help.py" line="79"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="54"/>
        <source>Import nvidia-smi output</source>
        <translation>导入 nvidia-smi 输出</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="57"/>
        <source>Paste what one of these printed on the GPU server: nvidia-smi, nvidia-smi -q, nvidia-smi -L, nvidia-smi topo -m, nvidia-smi dmon, or nvidia-smi --query-gpu=... --format=csv. Several outputs of one machine can be combined.</source>
        <translation>粘贴 GPU 服务器上以下命令的输出：nvidia-smi、nvidia-smi -q、nvidia-smi -L、nvidia-smi topo -m、nvidia-smi dmon 或 nvidia-smi --query-gpu=... --format=csv。同一台机器的多个输出可以一起导入。</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="66"/>
        <location filename="../../ui/dialogs/import_dialog.py" line="175"/>
        <source>Open files…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="67"/>
        <source>Detect this machine</source>
        <translation>检测本机</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="68"/>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="77"/>
        <source>Use these facts</source>
        <translation>使用这些信息</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="101"/>
        <location filename="../../ui/dialogs/import_dialog.py" line="138"/>
        <source>Nothing read yet.</source>
        <translation>尚未读取任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="136"/>
        <source>Files: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="196"/>
        <source>Observations</source>
        <translation>发现</translation>
    </message>
    <message>
        <location filename="../../ui/dialogs/import_dialog.py" line="206"/>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/window/main_window.py" line="529"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="530"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="531"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="532"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="533"/>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="534"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="535"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="536"/>
        <source>&amp;New profile</source>
        <translation>新建配置(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="537"/>
        <source>&amp;Open profile…</source>
        <translation>打开配置(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="538"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="539"/>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="540"/>
        <source>Re&amp;cover answers…</source>
        <translation>恢复答案(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="541"/>
        <source>&amp;Import nvidia-smi…</source>
        <translation>导入 nvidia-smi(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="542"/>
        <source>&amp;Export PDF…</source>
        <translation>导出 PDF(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="543"/>
        <source>Export PDF with the rule a&amp;ppendix…</source>
        <translation>导出 PDF（含规则附录）(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="544"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="545"/>
        <source>&amp;About</source>
        <translation>关于(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="546"/>
        <source>User &amp;guide</source>
        <translation>使用指南(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="547"/>
        <source>READ&amp;ME</source>
        <translation>自述文件 README(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="548"/>
        <source>Open &amp;log folder</source>
        <translation>打开日志文件夹(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="549"/>
        <source>&amp;Report a problem (copy details)</source>
        <translation>报告问题（复制详情）(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="585"/>
        <source>Some answers need attention (%1); the results are for the last valid answers.</source>
        <translation>有 %1 个答案需要修改；下面的结果基于最后一次有效的答案。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="621"/>
        <source>The results cannot be computed with these answers: %1</source>
        <translation>按当前的回答无法计算结果：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="624"/>
        <source>The results cannot be computed: see the marked answer.</source>
        <translation>无法计算结果：请查看标出的回答。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="626"/>
        <source>The results could not be computed because of an internal error; the details are in the log.</source>
        <translation>内部错误导致无法计算结果；详情见日志。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="643"/>
        <source>Verdict so far: %1 · %2</source>
        <translation>当前结论：%1 · %2</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="645"/>
        <source>cannot run on this hardware</source>
        <translation>在这套硬件上无法运行</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="648"/>
        <source>answers to fix: %1</source>
        <translation>待修改的答案：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="343"/>
        <location filename="../../ui/window/main_window.py" line="409"/>
        <source>No results yet: some answers need attention; they are marked at their fields.</source>
        <translation>还没有结果：有些答案需要修改，已在对应字段处标出。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="290"/>
        <source>several answers</source>
        <translation>多个答案</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="321"/>
        <source>The log folder is %1</source>
        <translation>日志文件夹：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="330"/>
        <source>Copied the version, the system and the end of the log: paste them into your report of the problem.</source>
        <translation>已复制版本、系统信息和日志末尾：请粘贴到你的问题报告中。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="524"/>
        <source>&lt; &amp;Back</source>
        <translation>&lt; 上一步(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="525"/>
        <source>&amp;Next &gt;</source>
        <translation>下一步(&amp;N) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="526"/>
        <source>Back</source>
        <translation>上一步</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="527"/>
        <source>Next</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="528"/>
        <source>Steps of the questionnaire</source>
        <translation>问卷步骤</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="582"/>
        <source>Some answers need attention (%1): fix them to see the results.</source>
        <translation>有 %1 个答案需要修改：改好后才能看到结果。</translation>
    </message>
</context>
<context>
    <name>Pages</name>
    <message>
        <location filename="../../ui/wizard/form_page.py" line="30"/>
        <source>Preset</source>
        <translation>常见模型</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/form_page.py" line="170"/>
        <source>Choose a common model…</source>
        <translation>选择常见模型…</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/form_page.py" line="252"/>
        <source>%1 GB memory · %2 TFLOPS FP16 · %3 W</source>
        <translation>显存 %1 GB · FP16 %2 TFLOPS · 功耗 %3 W</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="52"/>
        <source>Task and model</source>
        <translation>任务与模型</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="53"/>
        <source>What you train. Pick a preset or type the numbers; empty fields are estimated.</source>
        <translation>你在训练什么。选一个常见模型，或直接填数字；留空的项会自动估算。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="55"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="61"/>
        <source>How it trains</source>
        <translation>训练方式</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="81"/>
        <source>Training habits and the value of time</source>
        <translation>训练习惯与时间价值</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="85"/>
        <source>One run</source>
        <translation>单次训练</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="89"/>
        <source>How often</source>
        <translation>训练频率</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="92"/>
        <source>Value of time</source>
        <translation>时间价值</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="97"/>
        <source>Hardware and deployment</source>
        <translation>硬件与部署</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="98"/>
        <source>The GPUs, how they are connected, and whether you own them or rent them (F22–F25, F27, F29, F31).</source>
        <translation>用什么卡、卡之间怎么连，以及自建还是租用（F22–F25、F27、F29、F31）。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="100"/>
        <source>GPUs and links</source>
        <translation>显卡与互联</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="108"/>
        <source>Own or cloud, and prices</source>
        <translation>自建还是租用，以及价格</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="114"/>
        <source>Virtualisation, cooling and host memory</source>
        <translation>虚拟化、散热与主机内存</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="118"/>
        <source>Input pipeline</source>
        <translation>数据加载管线</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="119"/>
        <source>How the data reaches the GPUs. With single-threaded reading, four GPUs mostly wait (F28); the data loader usually needs 2–4 workers per GPU (F13).</source>
        <translation>数据如何送到显卡。单线程读盘时，4张卡大部分时间都在饿等数据（F28）；DataLoader 的 num_workers 通常要按卡数乘以2到4倍（F13）。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="122"/>
        <source>Data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="127"/>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="129"/>
        <source>Check a measured run</source>
        <translation>诊断实测结果</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="82"/>
        <source>How long one run takes on one GPU (or how much data it reads: a large model is then planned from its FLOPs), how often you run it, and what a day saved is worth to you (F02, F12).</source>
        <translation>单卡跑一次要多久（或一次读多少数据：大模型据此按计算量规划），多久跑一次，以及省下一天对你值多少（F02、F12）。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="104"/>
        <source>Your own GPU</source>
        <translation>自定义显卡</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="128"/>
        <source>Compare setups</source>
        <translation>配置对比</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="71"/>
        <source>Fine-tuning, optimizer and offload</source>
        <translation>微调、优化器与卸载</translation>
    </message>
    <message>
        <location filename="../../ui/wizard/page_fields.py" line="77"/>
        <source>Mixture of experts</source>
        <translation>混合专家（MoE）</translation>
    </message>
</context>
<context>
    <name>Pitfalls</name>
    <message>
        <location filename="../../ui/results/pitfalls_view.py" line="20"/>
        <source>Critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location filename="../../ui/results/pitfalls_view.py" line="21"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../ui/results/pitfalls_view.py" line="22"/>
        <source>Note</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../ui/results/pitfalls_view.py" line="26"/>
        <source>Pitfalls</source>
        <translation>注意事项（避坑）</translation>
    </message>
    <message>
        <location filename="../../ui/results/pitfalls_view.py" line="27"/>
        <source>No pitfalls for these answers.</source>
        <translation>按这些答案，没有发现需要注意的坑。</translation>
    </message>
    <message>
        <location filename="../../ui/results/pitfalls_view.py" line="28"/>
        <source>Remedy:</source>
        <translation>对策：</translation>
    </message>
    <message>
        <location filename="../../ui/results/pitfalls_view.py" line="29"/>
        <source>Set-up advice</source>
        <translation>迁移与配置建议</translation>
    </message>
</context>
<context>
    <name>Plots</name>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="26"/>
        <source>Buy vs rent, %1 GPUs</source>
        <translation>自建与租用对比（%1 卡）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="27"/>
        <source>Buy vs rent, 1 GPU</source>
        <translation>自建与租用对比（1 卡）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="28"/>
        <source>Buy vs rent</source>
        <translation>自建与租用对比</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="29"/>
        <source>No GPU count considered can run this job</source>
        <translation>所考虑的卡数都跑不了这个任务</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="30"/>
        <source>Months</source>
        <translation>月</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="31"/>
        <source>Cumulative cost (%1)</source>
        <translation>累计费用（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="32"/>
        <source>Own (buy)</source>
        <translation>自建（购买）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="33"/>
        <source>Cloud (rent)</source>
        <translation>云实例租用</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="34"/>
        <source>Break-even: %1 months</source>
        <translation>回本点：%1 个月</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="35"/>
        <source>No break-even in this period</source>
        <translation>规划周期内不会回本</translation>
    </message>
    <message>
        <location filename="../../ui/plots/buy_vs_rent.py" line="36"/>
        <source>Buy vs rent: not compared (a price is missing). Set %1 to compare.</source>
        <translation>自建还是云实例租用：缺少价格，未比较。填写 %1 后即可比较。</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="31"/>
        <source>Cost by number of GPUs</source>
        <translation>不同卡数的费用</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="32"/>
        <location filename="../../ui/plots/speedup.py" line="39"/>
        <source>GPUs</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="33"/>
        <source>Cost (%1, log scale)</source>
        <translation>费用（%1，对数坐标）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="34"/>
        <source>Cost per run</source>
        <translation>每次训练费用</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="35"/>
        <source>Cost per month</source>
        <translation>每月费用</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="38"/>
        <source>Cost per month (with the one-off move to multi-GPU spread over %1 months)</source>
        <translation>每月费用（含一次性多卡迁移，分摊到 %1 个月）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="40"/>
        <source>Value of time saved per month</source>
        <translation>每月省下时间的价值</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="41"/>
        <source>Best value: %1</source>
        <translation>性价比最高：%1卡</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="46"/>
        <source>No cloud price is known for this GPU, so renting it cannot be costed. Enter the cloud price of one GPU an hour (%1) on the hardware page to see the costs.</source>
        <translation>不知道这款显卡的云租用价格，无法计算租用成本。请在“硬件与部署”页填写每卡每小时的云价格（%1）后查看成本。</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="38"/>
        <source>Projected speed-up</source>
        <translation>预计加速比</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="40"/>
        <source>Speed-up vs one GPU (×)</source>
        <translation>相对单卡的加速比（倍）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="41"/>
        <source>Speed-up (×)</source>
        <translation>加速比（倍）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="42"/>
        <source>Projected</source>
        <translation>预计</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="43"/>
        <source>Likely range</source>
        <translation>可能范围</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="44"/>
        <source>Ideal (linear)</source>
        <translation>理想（线性）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="45"/>
        <source>Article&apos;s typical range (F01)</source>
        <translation>原文的常见区间（F01）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="46"/>
        <source>Same workload on %1</source>
        <translation>同样任务换成 %1</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="47"/>
        <source>Recommended: %1</source>
        <translation>推荐：%1卡</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="50"/>
        <source>Memory at the card&apos;s limit (may or may not fit)</source>
        <translation>显存接近上限（放不放得下都有可能）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/speedup.py" line="52"/>
        <source>Recommended: %1 GPUs (beyond this chart)</source>
        <translation>推荐：%1 卡（超出本图范围）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/style.py" line="33"/>
        <source>CNY</source>
        <translation>元</translation>
    </message>
    <message>
        <location filename="../../ui/plots/style.py" line="34"/>
        <source>USD</source>
        <translation>美元</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="44"/>
        <source>Cheapest: %1 (time not valued)</source>
        <translation>最省钱：%1（未给时间定价）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/cost.py" line="45"/>
        <location filename="../../ui/plots/speedup.py" line="48"/>
        <source>Does not fit in memory</source>
        <translation>显存放不下</translation>
    </message>
    <message>
        <location filename="../../ui/plots/style.py" line="35"/>
        <source>EUR</source>
        <translation>欧元</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="35"/>
        <source>Time per run against cost per month</source>
        <translation>每次训练时间与每月成本</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="36"/>
        <source>Hours per run (log scale)</source>
        <translation>每次训练小时数（对数坐标）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="37"/>
        <source>Cost per month (%1, log scale)</source>
        <translation>每月成本（%1，对数坐标）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="38"/>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="39"/>
        <source>Own</source>
        <translation>自建</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="40"/>
        <source>Rent</source>
        <translation>租用</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="41"/>
        <source>Dominated</source>
        <translation>被占优</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="42"/>
        <source>No setup compared can run this job at a known price.</source>
        <translation>对比的配置中没有能以已知价格运行此任务的。</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="43"/>
        <source>%1 GPUs</source>
        <translation>%1 卡</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="46"/>
        <source>★ #%1 · %2 GPUs</source>
        <translation>★ #%1 · %2 卡</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="47"/>
        <source>★ #%1 · 1 GPU</source>
        <translation>★ #%1 · 单卡</translation>
    </message>
    <message>
        <location filename="../../ui/plots/compare.py" line="48"/>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
</context>
<context>
    <name>Preview</name>
    <message>
        <location filename="../../ui/results/live_preview.py" line="119"/>
        <location filename="../../ui/results/live_preview.py" line="148"/>
        <source>Speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="137"/>
        <location filename="../../ui/results/live_preview.py" line="143"/>
        <location filename="../../ui/results/live_preview.py" line="146"/>
        <source>Live result</source>
        <translation>实时结果</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="139"/>
        <source>For earlier answers: %1 to fix</source>
        <translation>属于之前的答案：有 %1 个要改正</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="141"/>
        <location filename="../../ui/results/live_preview.py" line="144"/>
        <source>Fold or open the live result</source>
        <translation>折叠或展开实时结果</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="157"/>
        <source>No results</source>
        <translation>没有结果</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="180"/>
        <source>Cannot run on this hardware</source>
        <translation>在这套硬件上无法运行</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="182"/>
        <source>%1: beyond the counts projected</source>
        <translation>%1：超出已预测的卡数范围</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="184"/>
        <source>Stay on one GPU
%3 a month</source>
        <translation>单卡即可
每月 %3</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="186"/>
        <source>%1: %2× one GPU
%3 a month</source>
        <translation>%1：单卡的 %2 倍
每月 %3</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="211"/>
        <source>Blue: projected speed-up and its likely range.</source>
        <translation>蓝线：预计加速比及可能范围。</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="214"/>
        <source>Red crosses: the model does not fit in memory there.</source>
        <translation>红叉：该卡数下显存放不下模型。</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="217"/>
        <source>Green dashed: on a faster link.</source>
        <translation>绿色虚线：换用更快的互联。</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="219"/>
        <source>Orange bars: the article&apos;s typical range (F01).</source>
        <translation>橙色竖条：原文的常见区间（F01）。</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="221"/>
        <source>Grey: ideal.</source>
        <translation>灰线：理想线性。</translation>
    </message>
    <message>
        <location filename="../../ui/results/live_preview.py" line="192"/>
        <source>With %1:</source>
        <translation>采用%1：</translation>
    </message>
</context>
<context>
    <name>ResultsPage</name>
    <message>
        <location filename="../../ui/results/results_page.py" line="56"/>
        <source>Speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../../ui/results/results_page.py" line="56"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location filename="../../ui/results/results_page.py" line="57"/>
        <source>Buy vs rent</source>
        <translation>自建还是租用</translation>
    </message>
    <message>
        <location filename="../../ui/results/results_page.py" line="57"/>
        <source>Pitfalls &amp;&amp; advice</source>
        <translation>注意事项与建议</translation>
    </message>
    <message>
        <location filename="../../ui/results/results_page.py" line="58"/>
        <source>Why</source>
        <translation>为什么</translation>
    </message>
    <message>
        <location filename="../../ui/results/results_page.py" line="62"/>
        <location filename="../../ui/results/results_page.py" line="63"/>
        <source>Result views</source>
        <translation>结果视图</translation>
    </message>
    <message>
        <location filename="../../ui/results/results_page.py" line="64"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <location filename="../../ui/window/main_window.py" line="44"/>
        <source>CNY</source>
        <translation>元</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="44"/>
        <source>USD</source>
        <translation>美元</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.py" line="45"/>
        <source>EUR</source>
        <translation>欧元</translation>
    </message>
</context>
<context>
    <name>Verdict</name>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="27"/>
        <source>Not worth it</source>
        <translation>不划算</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="28"/>
        <source>Optional (2 GPUs if you like)</source>
        <translation>可选（2卡看心情）</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="29"/>
        <source>Worth it</source>
        <translation>划算</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="30"/>
        <source>Multi-GPU required</source>
        <translation>必须上多卡</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="35"/>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="35"/>
        <source>DeepSpeed ZeRO</source>
        <translation>DeepSpeed ZeRO</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="36"/>
        <source>Fully sharded (FSDP)</source>
        <translation>全分片（FSDP）</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="37"/>
        <source>Tensor (model) parallel</source>
        <translation>模型并行（张量并行）</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="38"/>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="39"/>
        <source>Hybrid (data + model/pipeline)</source>
        <translation>混合（数据并行 + 模型/流水线并行）</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="43"/>
        <source>PyTorch DDP</source>
        <translation>PyTorch DDP</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="43"/>
        <source>PyTorch FSDP</source>
        <translation>PyTorch FSDP</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="44"/>
        <source>DeepSpeed</source>
        <translation>DeepSpeed</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="45"/>
        <source>Horovod</source>
        <translation>Horovod</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="45"/>
        <source>Megatron-LM</source>
        <translation>Megatron-LM</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="46"/>
        <source>TorchRec (or HugeCTR)</source>
        <translation>TorchRec（或 HugeCTR）</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="47"/>
        <source>None needed (one GPU)</source>
        <translation>无需（单卡）</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="51"/>
        <source>Own hardware</source>
        <translation>自建（自有硬件）</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="51"/>
        <source>Cloud rental</source>
        <translation>云实例租用</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="52"/>
        <source>Own or cloud</source>
        <translation>自建或租用皆可</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="56"/>
        <source>1 GPU</source>
        <translation>单卡</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="56"/>
        <source>%1 GPUs</source>
        <translation>%1卡</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="61"/>
        <source>1 machine</source>
        <translation>单机</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="61"/>
        <source>%1 machines</source>
        <translation>%1台机器</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="275"/>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="277"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="278"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
</context>
<context>
    <name>VerdictCard</name>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="137"/>
        <source>GPUs</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="137"/>
        <source>Parallelism</source>
        <translation>并行方式</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="138"/>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="138"/>
        <source>Deployment</source>
        <translation>部署</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="139"/>
        <source>Speed-up at that count</source>
        <translation>该卡数的加速比</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="140"/>
        <source>One run: one GPU → that count</source>
        <translation>单次训练：单卡 → 该卡数</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="141"/>
        <source>Cost per month</source>
        <translation>每月费用</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="141"/>
        <location filename="../../ui/results/verdict_card.py" line="201"/>
        <source>Best value</source>
        <translation>性价比最高</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="151"/>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="175"/>
        <source>No results</source>
        <translation>没有结果</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="207"/>
        <source>Cannot run on this hardware</source>
        <translation>在这套硬件上无法运行</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="232"/>
        <source>%1 if one GPU held it</source>
        <translation>%1（假如单卡放得下）</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="241"/>
        <source>No purchase price is known for this GPU: the own-hardware costs leave out the cards. Enter the price of one GPU on the hardware page.</source>
        <translation>目录中没有该显卡的购买价格：自建成本未计入显卡本身。请在“硬件与部署”页填写单卡价格。</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="245"/>
        <source>No cloud offer is known for this GPU: cloud costs are not shown.</source>
        <translation>目录中没有该显卡的云上报价：不显示云上成本。</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="145"/>
        <source>Say what a day saved is worth…</source>
        <translation>说明省下一天值多少…</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="144"/>
        <source>Export &amp;PDF…</source>
        <translation>导出 PDF(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../ui/results/verdict_card.py" line="202"/>
        <source>Cheapest, time not valued</source>
        <translation>最省钱（未给时间定价）</translation>
    </message>
</context>
<context>
    <name>Why</name>
    <message>
        <location filename="../../ui/results/why_view.py" line="17"/>
        <source>Why this recommendation</source>
        <translation>为什么这样推荐</translation>
    </message>
    <message>
        <location filename="../../ui/results/why_view.py" line="18"/>
        <source>Each rule that fired, what it concluded, the numbers it matched and the facts of the article it encodes.</source>
        <translation>每条触发的规则、它的结论、它匹配的数值，以及它所依据的原文事实。</translation>
    </message>
    <message>
        <location filename="../../ui/results/why_view.py" line="21"/>
        <source>No rule fired.</source>
        <translation>没有规则触发。</translation>
    </message>
    <message>
        <location filename="../../ui/results/why_view.py" line="22"/>
        <source>Matched:</source>
        <translation>匹配：</translation>
    </message>
    <message>
        <location filename="../../ui/results/why_view.py" line="23"/>
        <source>overridden by %1</source>
        <translation>被 %1 覆盖</translation>
    </message>
</context>
<context>
    <name>window</name>
    <message>
        <location filename="../../ui/window/problem_list.py" line="80"/>
        <source>Answers to fix</source>
        <translation>需要修改的答案</translation>
    </message>
</context>
</TS>
