import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { KeyCode } from '../_utils/keyCodes';
import './tag.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-tag`;

export const TAG_COLORS = ['grey', 'blue', 'cyan', 'green', 'lime', 'amber', 'orange', 'red', 'pink', 'purple', 'violet'] as const;

export type TagColor = (typeof TAG_COLORS)[number];

export interface TagProps {
    /**
     * Color from the palette.
     * @default 'grey'
     */
    color?: TagColor;
    /**
     * `light` uses a tinted background, `solid` a filled one and `ghost` only a border.
     * @default 'light'
     */
    type?: 'light' | 'solid' | 'ghost';
    /** @default 'default' */
    size?: 'small' | 'default' | 'large';
    /** @default 'square' */
    shape?: 'square' | 'circle';
    /**
     * Show a close button.
     * @default false
     */
    closable?: boolean;
    /** Controlled visibility. */
    visible?: boolean;
    /** Node before the text, typically an Avatar or an icon. */
    prefixIcon?: React.ReactNode;
    /** Called when the close button is clicked. Call `event.preventDefault()` to keep the tag. */
    onClose?: (event: React.MouseEvent<HTMLElement>) => void;
    /** Makes the tag focusable and clickable. */
    onClick?: (event: React.MouseEvent<HTMLDivElement>) => void;
    className?: string;
    style?: React.CSSProperties;
    children?: React.ReactNode;
}

export default function Tag(props: TagProps) {
    const { color = 'grey', type = 'light', size = 'default', shape = 'square', closable = false, visible, prefixIcon, onClose, onClick, className, style, children } = props;
    const [innerVisible, setInnerVisible] = React.useState(true);
    const shown = visible ?? innerVisible;

    if (!shown) {
        return null;
    }

    const handleClose = (event: React.MouseEvent<HTMLElement>) => {
        event.stopPropagation();
        onClose?.(event);
        if (!event.defaultPrevented && visible === undefined) {
            setInnerVisible(false);
        }
    };

    const handleKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
        if (onClick && (event.keyCode === KeyCode.ENTER || event.keyCode === KeyCode.SPACE)) {
            event.preventDefault();
            event.currentTarget.click();
        }
    };

    return (
        <div
            className={cls(prefixCls, className, `${prefixCls}-${color}-${type}`, `${prefixCls}-${size}`, `${prefixCls}-${shape}`, {
                [`${prefixCls}-clickable`]: Boolean(onClick),
                [`${prefixCls}-closable`]: closable,
            })}
            style={style}
            role={onClick ? 'button' : undefined}
            tabIndex={onClick ? 0 : undefined}
            onClick={onClick}
            onKeyDown={handleKeyDown}
        >
            {prefixIcon ? <span className={`${prefixCls}-prefix`}>{prefixIcon}</span> : null}
            <span className={`${prefixCls}-content`}>{children}</span>
            {closable ? <button type="button" aria-label="Remove" className={`${prefixCls}-close`} onClick={handleClose} /> : null}
        </div>
    );
}
