import { appCopy } from "./copy";
import { appCopyZh } from "./copy-zh";
import { attentionCopy } from "../features/attention/copy";
import { attentionCopyZh } from "../features/attention/copy-zh";
import { chatCopy } from "../features/chat/copy";
import { chatCopyZh } from "../features/chat/copy-zh";
import { mcpCopy } from "../features/mcp/copy";
import { mcpCopyZh } from "../features/mcp/copy-zh";
import { questionCopy } from "../features/question/copy";
import { questionCopyZh } from "../features/question/copy-zh";
import { sessionsCopy } from "../features/sessions/copy";
import { sessionsCopyZh } from "../features/sessions/copy-zh";
import { markdownCopy } from "../ui/markdown-copy";
import { markdownCopyZh } from "../ui/markdown-copy-zh";
import { themeCopy } from "../ui/theme-copy";
import { themeCopyZh } from "../ui/theme-copy-zh";
import { fillCatalog, markLocaleFilled } from "../i18n/locale";

// The Chinese of every catalogue the first screen imports, and of the question panel's, which every chat loads (all
// `englishFirst`); the other lazy features' catalogues hold both languages.
fillCatalog(appCopy, "zh-CN", appCopyZh);
fillCatalog(attentionCopy, "zh-CN", attentionCopyZh);
fillCatalog(chatCopy, "zh-CN", chatCopyZh);
fillCatalog(mcpCopy, "zh-CN", mcpCopyZh);
fillCatalog(questionCopy, "zh-CN", questionCopyZh);
fillCatalog(sessionsCopy, "zh-CN", sessionsCopyZh);
fillCatalog(markdownCopy, "zh-CN", markdownCopyZh);
fillCatalog(themeCopy, "zh-CN", themeCopyZh);
markLocaleFilled("zh-CN");
