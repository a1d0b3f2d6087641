import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import Tag from './Tag';
import type { TagProps } from './Tag';

const prefixCls = `${BASE_CLASS_PREFIX}-tag-group`;

export interface TagGroupProps {
    /** Tags to render, as props objects. */
    tagList: Array<TagProps & { key?: React.Key }>;
    /** Show at most this many tags and collapse the rest into "+N". */
    maxTagCount?: number;
    /** Render the "+N" tag yourself, e.g. to wrap it in a Tooltip. */
    renderRest?: (restTags: TagProps[]) => React.ReactNode;
    size?: TagProps['size'];
    className?: string;
    style?: React.CSSProperties;
}

export default function TagGroup(props: TagGroupProps) {
    const { tagList, maxTagCount, renderRest, size, className, style } = props;
    const shown = typeof maxTagCount === 'number' ? tagList.slice(0, maxTagCount) : tagList;
    const rest = tagList.slice(shown.length);

    return (
        <div className={cls(prefixCls, className)} style={style}>
            {shown.map(({ key, ...tagProps }, index) => (
                <Tag key={key ?? index} size={size} {...tagProps} />
            ))}
            {rest.length > 0 ? (renderRest ? renderRest(rest) : <Tag size={size}>{`+${rest.length}`}</Tag>) : null}
        </div>
    );
}
