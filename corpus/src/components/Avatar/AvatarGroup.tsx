import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import Avatar from './Avatar';
import type { AvatarProps } from './Avatar';

const prefixCls = `${BASE_CLASS_PREFIX}-avatar-group`;

export interface AvatarGroupProps {
    /** Size applied to every avatar in the group. */
    size?: AvatarProps['size'];
    /** Shape applied to every avatar in the group. */
    shape?: AvatarProps['shape'];
    /** Show at most this many avatars, followed by a "+N" avatar. */
    maxCount?: number;
    /** Render the "+N" avatar yourself. */
    renderMore?: (restCount: number, restAvatars: React.ReactElement[]) => React.ReactNode;
    /** Which avatar is drawn on top where they overlap. @default 'right' */
    overlapFrom?: 'left' | 'right';
    className?: string;
    children?: React.ReactNode;
}

export default function AvatarGroup(props: AvatarGroupProps) {
    const { size, shape, maxCount, renderMore, overlapFrom = 'right', className, children } = props;
    const avatars = React.Children.toArray(children).filter(React.isValidElement) as React.ReactElement<AvatarProps>[];
    const shown = typeof maxCount === 'number' ? avatars.slice(0, maxCount) : avatars;
    const rest = avatars.slice(shown.length);

    return (
        <div className={cls(prefixCls, className, `${prefixCls}-overlap-${overlapFrom}`)}>
            {shown.map((avatar, index) =>
                React.cloneElement(avatar, {
                    key: avatar.key ?? index,
                    size: avatar.props.size ?? size,
                    shape: avatar.props.shape ?? shape,
                }),
            )}
            {rest.length > 0
                ? renderMore
                    ? renderMore(rest.length, rest)
                    : <Avatar size={size} shape={shape}>{`+${rest.length}`}</Avatar>
                : null}
        </div>
    );
}
