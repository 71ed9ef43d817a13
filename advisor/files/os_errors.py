"""An operating-system error as a reason a reader understands, in English and Chinese.

``OSError.strerror`` comes from the C library in English whatever the output language; the
common file errors are translated here by their ``errno`` (others keep the system's text).
"""

from __future__ import annotations

import errno

from advisor.text.i18n import Text

_REASONS = {
    errno.ENOENT: Text(en="no such file or folder", zh="文件或文件夹不存在"),
    errno.EACCES: Text(en="permission denied", zh="权限不足"),
    errno.EPERM: Text(en="operation not permitted", zh="不允许此操作"),
    errno.EROFS: Text(en="read-only file system", zh="只读文件系统"),
    errno.ENOSPC: Text(en="no space left on the device", zh="磁盘空间不足"),
    errno.EISDIR: Text(en="it is a folder", zh="这是一个文件夹"),
    errno.ENOTDIR: Text(en="a part of the path is not a folder", zh="路径中有一部分不是文件夹"),
    errno.EEXIST: Text(en="it already exists", zh="已存在"),
    errno.ENAMETOOLONG: Text(en="the name is too long", zh="文件名太长"),
    errno.EDQUOT: Text(en="disk quota exceeded", zh="超出磁盘配额"),
    errno.EINVAL: Text(en="invalid argument", zh="参数无效"),
}


def os_reason(exc: OSError) -> Text:
    """Why ``exc`` happened, in both languages (the system's text when the errno is rare)."""
    known = _REASONS.get(exc.errno) if exc.errno is not None else None
    if known is not None:
        return known
    text = exc.strerror or str(exc)
    return Text(en=text, zh=text)
