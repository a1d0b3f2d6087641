import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import './avatar.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-avatar`;

export type AvatarSize = 'extra-extra-small' | 'extra-small' | 'small' | 'default' | 'medium' | 'large' | 'extra-large';

export type AvatarColor = 'grey' | 'blue' | 'cyan' | 'green' | 'amber' | 'orange' | 'red' | 'pink' | 'purple';

export interface AvatarProps {
    /** Image URL. Children are shown while it loads and if it fails. */
    src?: string;
    /** Alternative text of the image. Required when `src` is set. */
    alt?: string;
    /** Responsive image sources. */
    srcSet?: string;
    /**
     * Preset size name, or a size in pixels.
     * @default 'medium'
     */
    size?: AvatarSize | number;
    /** @default 'circle' */
    shape?: 'circle' | 'square';
    /**
     * Background color for text avatars. `auto` picks one from the text.
     * @default 'grey'
     */
    color?: AvatarColor | 'auto';
    /** Return `false` to keep the broken image instead of falling back to children. */
    onError?: () => boolean | void;
    onClick?: (event: React.MouseEvent<HTMLSpanElement>) => void;
    className?: string;
    style?: React.CSSProperties;
    /** Usually one or two initials. */
    children?: React.ReactNode;
}

const AUTO_COLORS: AvatarColor[] = ['blue', 'cyan', 'green', 'amber', 'orange', 'red', 'pink', 'purple'];

/** Deterministic color for a piece of text, so the same name always gets the same color. */
export function pickColor(text: string): AvatarColor {
    let hash = 0;
    for (let index = 0; index < text.length; index += 1) {
        hash = (hash * 31 + text.charCodeAt(index)) | 0;
    }
    return AUTO_COLORS[Math.abs(hash) % AUTO_COLORS.length];
}

export default function Avatar(props: AvatarProps) {
    const { src, alt, srcSet, size = 'medium', shape = 'circle', color = 'grey', onError, onClick, className, style, children } = props;
    const [failed, setFailed] = React.useState(false);

    React.useEffect(() => setFailed(false), [src]);

    const showImage = Boolean(src) && !failed;
    const text = typeof children === 'string' ? children : '';
    const resolvedColor = color === 'auto' ? pickColor(text) : color;
    const sizeStyle = typeof size === 'number' ? { width: size, height: size, fontSize: Math.round(size * 0.4) } : undefined;

    const handleError = () => {
        if (onError?.() !== false) {
            setFailed(true);
        }
    };

    return (
        <span
            className={cls(prefixCls, className, `${prefixCls}-${shape}`, {
                [`${prefixCls}-${size}`]: typeof size === 'string',
                [`${prefixCls}-${resolvedColor}`]: !showImage,
                [`${prefixCls}-clickable`]: Boolean(onClick),
            })}
            style={{ ...sizeStyle, ...style }}
            role={onClick ? 'button' : showImage ? undefined : 'img'}
            aria-label={!showImage ? alt ?? text : undefined}
            tabIndex={onClick ? 0 : undefined}
            onClick={onClick}
        >
            {showImage ? <img src={src} srcSet={srcSet} alt={alt} onError={handleError} /> : <span className={`${prefixCls}-label`}>{children}</span>}
        </span>
    );
}
