/**
 * Word classes the learned model reads as features (`_features.ts`): general vocabulary, not phrases of any one
 * query, so the model can weigh a word it never saw in training by the class it belongs to. A class feature says
 * "an action verb opens the query" or "the query names an attribute of something"; the model learns what each
 * class means for each intent. Han words are two or three characters.
 */

// Verbs that open a request to do something ("compress folder tar gz", "extend lvm volume online").
const ACTION_VERBS = new Set(
  `access add align allow attach automate backup bind block build bump bypass call cancel catch center change check
  cherry clean clear clone close compile compress configure connect convert copy create debug decrease decrypt delete
  deploy detach disable downgrade drop edit embed enable encrypt export expose extend extract filter fix flush force
  format forward generate hide ignore import increase inject install integrate invoke join kill limit load lock log
  make merge migrate mock mount move open optimize optimise parse patch pin print profile publish purge push read
  rebase redirect reduce reinstall remove rename renew replace reset resize restart restore retry revert rollback run
  save schedule send set setup share show sign skip sort speed split squash stash start stop sync tag truncate
  uninstall unlock unmount unzip update upgrade upload use validate verify write zip`.split(/\s+/),
)

const HAN_ACTIONS = new Set(
  `安装 卸载 删除 添加 创建 新建 配置 设置 开启 关闭 启用 禁用 修改 更改 更新 升级 降级 转换 导出 导入 压缩 解压 挂载 打开
  开放 扩容 重命名 移动 复制 克隆 合并 回滚 撤销 重置 修复 调试 部署 推送 拉取 连接 生成 迁移 查找 查看 搜索 替换 排序
  过滤 解析 读取 写入 保存 加载 上传 清理 清除 清空 续期 定时 执行 跳过 访问 隐藏 显示 打印 加密 解密 签名 绑定 转发 限制
  备份 恢复 同步 实现 编译 打包 运行 启动 重启 停止 退出 截图 激活 优化 提速 传参 防抖 节流 切换 登录 注册 申请 编写 封装
  调用 处理 排查 解决 搭建 接入 集成 监控 抓包 转成 改成 换成 去掉 关掉 装个 弄个`.split(/\s+/),
)

// Nouns that ask for one attribute of a thing: its value answers the query ("headquarters of arm", "台积电 董事长").
const ATTRIBUTES = new Set(
  `abbreviation acronym address age area author birthday birthplace boiling capital ceo chairman code color colors
  colour count creator cto currency default definition density designer distance founder founders frequency
  headquarters height hq inventor length license licence limit logo mascot max maximum meaning melting min minimum
  motto name number owner population port president price size speed spelling stands symbol temperature timezone unit
  value wavelength weight width year`.split(/\s+/),
)

const HAN_ATTRIBUTES = new Set(
  `首都 人口 货币 高度 面积 距离 速度 温度 沸点 熔点 创始 始人 作者 发明 维护 董事 总裁 总部 出生 年龄 许可 端口 默认 最大
  最小 上限 下限 含义 意思 全称 缩写 定义 年份 成立 时区 区号 代码 吉祥 长度 大小 价格 地址 首府 位数 字节 多少 几位 多大 多高 多远 多长`.split(
    /\s+/,
  ),
)

// Things one fetches: a document, a download, a place ("ubuntu server iso", "mit 6.824 lectures", "jq 手册").
const ARTEFACTS = new Set(
  `apk binaries binary book books cheatsheet chart course courses dataset datasets deb docs documentation download
  downloads dmg ebook exe extension extensions font fonts icons image images installer iso lectures library manual
  mirror mirrors notes paper papers pdf playlist plugin plugins reference repo repository rfc rpm slides spec
  specification tarball template templates theme themes torrent videos website weights whitepaper wiki zip`.split(
    /\s+/,
  ),
)
const HAN_ARTEFACTS = new Set(
  `文档 手册 下载 镜像 安装包 官网 链接 地址 仓库 源码 论文 书籍 电子书 课程 视频 教材 数据集 模板 插件 字体 图标 资源 合集 大全 清单 书单 网站 速查 主题 权重`.split(
    /\s+/,
  ),
)

// Events: things that happened to companies and people ("intel layoffs", "英伟达 财报").
const EVENTS = new Set(
  `acquires acquired acquisition announced announces announcement antitrust ban banned breach deal earnings fine
  fined fired funding hack hacked ipo keynote launch launched launches lawsuit layoffs leak leaked merger outage
  raises recall resigns ruling sued sues verdict`.split(/\s+/),
)
const HAN_EVENTS = new Set(
  '裁员 收购 并购 罚款 财报 上市 召回 辞职 起诉 诉讼 融资 泄露 发布会 宣布 事故 风波 禁令 制裁 判决 新闻 消息 报道 曝光'.split(
    ' ',
  ),
)

// Words of time and state: the answer changes with time ("yet", "still", "现在", "了吗").
const TEMPORAL = new Set(
  'already anymore current currently latest lately now nowadays recently still today yet'.split(' '),
)
const HAN_TEMPORAL = new Set(
  '现在 目前 已经 最新 如今 至今 当前 进展 了吗 了没 没有 出了 还在 还能 还有 最近'.split(' '),
)

const HAN_CLASSES: readonly [string, ReadonlySet<string>][] = [
  ['action', HAN_ACTIONS],
  ['attribute', HAN_ATTRIBUTES],
  ['temporal', HAN_TEMPORAL],
  ['artefact', HAN_ARTEFACTS],
  ['event', HAN_EVENTS],
]

/** The word classes present in a query's Latin words and Han runs (lower case). */
export function wordClasses(words: readonly string[], hanRuns: readonly string[]): string[] {
  const classes = new Set<string>()
  if (words.length > 0 && ACTION_VERBS.has(words[0]!)) classes.add('action-first')
  for (const word of words) {
    if (ATTRIBUTES.has(word)) classes.add('attribute')
    if (TEMPORAL.has(word)) classes.add('temporal')
    if (ARTEFACTS.has(word)) classes.add('artefact')
    if (EVENTS.has(word)) classes.add('event')
  }
  for (const run of hanRuns)
    for (let i = 0; i + 2 <= run.length; i++)
      for (const word of [run.slice(i, i + 2), run.slice(i, i + 3)])
        for (const [name, set] of HAN_CLASSES) if (set.has(word)) classes.add(name)
  return [...classes]
}

/** A class feature as a person reads it in an explanation. */
export function describeClass(name: string): string {
  return (
    (
      {
        'action-first': 'an action verb first',
        action: 'an action verb',
        attribute: 'names an attribute',
        'yes-no-temporal': 'a yes/no question about now',
        'yes-no-timeless': 'a yes/no question, no word of time',
        'zh-question-temporal': 'a 吗 question about now',
        'zh-question-timeless': 'a 吗 question, no word of time',
        temporal: 'a word of time',
        artefact: 'names an artefact (docs, download, paper…)',
        event: 'names an event (layoffs, launch, 财报…)',
      } as Record<string, string>
    )[name] ?? name
  )
}
