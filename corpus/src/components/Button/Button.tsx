import React from 'react';
import { cls } from '../_utils/classNames';
import { useConfig } from '../_utils/ConfigContext';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import Spin from '../Spin';
import './button.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-btn`;

export type ButtonType = 'primary' | 'secondary' | 'tertiary' | 'warning' | 'danger';
export type ButtonTheme = 'solid' | 'light' | 'borderless' | 'outline';
export type ButtonSize = 'small' | 'default' | 'large';

export interface ButtonProps extends Omit<React.ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
    /**
     * Semantic color of the button.
     * @default 'primary'
     */
    type?: ButtonType;
    /**
     * Visual weight. `solid` is the strongest, `borderless` the lightest.
     * @default 'light'
     */
    theme?: ButtonTheme;
    /** @default 'default' */
    size?: ButtonSize;
    /**
     * Show a spinner and ignore clicks.
     * @default false
     */
    loading?: boolean;
    /** Icon node. A button with only an icon needs `aria-label`. */
    icon?: React.ReactNode;
    /** @default 'left' */
    iconPosition?: 'left' | 'right';
    /**
     * Stretch to the width of the parent.
     * @default false
     */
    block?: boolean;
    /**
     * Native `type` attribute.
     * @default 'button'
     */
    htmlType?: 'button' | 'submit' | 'reset';
}

const Button = React.forwardRef<HTMLButtonElement, ButtonProps>(function Button(props, ref) {
    const {
        type = 'primary',
        theme = 'light',
        size,
        loading = false,
        disabled = false,
        icon,
        iconPosition = 'left',
        block = false,
        htmlType = 'button',
        className,
        children,
        onClick,
        ...rest
    } = props;
    const config = useConfig();
    const mergedSize = size ?? config.size ?? 'default';
    const iconOnly = Boolean(icon || loading) && (children === undefined || children === null || children === '');

    const handleClick = (event: React.MouseEvent<HTMLButtonElement>) => {
        if (loading || disabled) {
            event.preventDefault();
            return;
        }
        onClick?.(event);
    };

    const iconNode = loading ? <Spin size="small" className={`${prefixCls}-spinner`} /> : icon;

    return (
        <button
            {...rest}
            ref={ref}
            type={htmlType}
            disabled={disabled}
            aria-busy={loading || undefined}
            aria-disabled={disabled || loading || undefined}
            className={cls(prefixCls, className, `${prefixCls}-${type}`, `${prefixCls}-${theme}`, `${prefixCls}-${mergedSize}`, {
                [`${prefixCls}-block`]: block,
                [`${prefixCls}-loading`]: loading,
                [`${prefixCls}-icon-only`]: iconOnly,
                [`${prefixCls}-disabled`]: disabled,
            })}
            onClick={handleClick}
        >
            {iconNode && iconPosition === 'left' ? <span className={`${prefixCls}-icon`}>{iconNode}</span> : null}
            {children !== undefined && children !== null ? <span className={`${prefixCls}-content`}>{children}</span> : null}
            {iconNode && iconPosition === 'right' ? <span className={`${prefixCls}-icon`}>{iconNode}</span> : null}
        </button>
    );
});

Button.displayName = 'Button';

export default Button;
