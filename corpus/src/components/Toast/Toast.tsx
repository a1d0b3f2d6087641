import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import './toast.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-toast`;

export type ToastType = 'info' | 'success' | 'warning' | 'error';

export interface ToastProps {
    id: string;
    /** @default 'info' */
    type?: ToastType;
    /** Message text. */
    content: React.ReactNode;
    /** Seconds before the toast closes. `0` keeps it open. @default 3 */
    duration?: number;
    /** Show a close button. @default true */
    showClose?: boolean;
    /** Replace the type icon. */
    icon?: React.ReactNode;
    /** @default 'light' */
    theme?: 'light' | 'normal';
    /** Called after the toast closes. */
    onClose?: () => void;
    className?: string;
    style?: React.CSSProperties;
}

interface ToastItemProps extends ToastProps {
    onRemove: (id: string) => void;
}

/**
 * A single toast. Pauses its timer while hovered or focused so that users
 * have time to read it.
 */
export function ToastItem(props: ToastItemProps) {
    const { id, type = 'info', content, duration = 3, showClose = true, icon, theme = 'light', onClose, onRemove, className, style } = props;
    const [paused, setPaused] = React.useState(false);

    React.useEffect(() => {
        if (duration <= 0 || paused) {
            return undefined;
        }
        const timer = setTimeout(() => {
            onRemove(id);
            onClose?.();
        }, duration * 1000);
        return () => clearTimeout(timer);
    }, [duration, paused, id, onRemove, onClose]);

    const urgent = type === 'error' || type === 'warning';

    return (
        <div
            role={urgent ? 'alert' : 'status'}
            aria-live={urgent ? 'assertive' : 'polite'}
            className={cls(prefixCls, className, `${prefixCls}-${type}`, `${prefixCls}-${theme}`)}
            style={style}
            onMouseEnter={() => setPaused(true)}
            onMouseLeave={() => setPaused(false)}
            onFocus={() => setPaused(true)}
            onBlur={() => setPaused(false)}
        >
            <span className={`${prefixCls}-icon`} aria-hidden="true">
                {icon}
            </span>
            <div className={`${prefixCls}-content`}>{content}</div>
            {showClose ? (
                <button
                    type="button"
                    aria-label="Close"
                    className={`${prefixCls}-close`}
                    onClick={() => {
                        onRemove(id);
                        onClose?.();
                    }}
                />
            ) : null}
        </div>
    );
}

export function ToastList(props: { toasts: ToastProps[]; top: number; zIndex: number; onRemove: (id: string) => void }) {
    const { toasts, top, zIndex, onRemove } = props;
    return (
        <div className={`${prefixCls}-list`} style={{ top, zIndex }}>
            {toasts.map((toast) => (
                <ToastItem key={toast.id} {...toast} onRemove={onRemove} />
            ))}
        </div>
    );
}
