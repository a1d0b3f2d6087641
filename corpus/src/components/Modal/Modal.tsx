import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX, DEFAULT_Z_INDEX } from '../_utils/constants';
import { useConfig } from '../_utils/ConfigContext';
import { Portal } from '../_utils/Portal';
import { useId } from '../_utils/useId';
import Button from '../Button';
import type { ButtonProps } from '../Button';
import { useFocusTrap, useScrollLock } from './hooks';
import './modal.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-modal`;

export interface ModalProps {
    /** Whether the modal is open. */
    visible: boolean;
    /** Heading. Also used as the accessible name of the dialog. */
    title?: React.ReactNode;
    /** Custom footer. `null` removes it. */
    footer?: React.ReactNode;
    /** Called when the OK button is clicked. Return a promise to keep the button loading until it settles. */
    onOk?: (event: React.MouseEvent<HTMLButtonElement>) => void | Promise<unknown>;
    /** Called when the user dismisses the modal (Cancel, ×, Esc or mask). */
    onCancel?: (event?: React.SyntheticEvent) => void;
    /** Called after the modal has fully closed. */
    afterClose?: () => void;
    /** @default 'OK' */
    okText?: React.ReactNode;
    /** @default 'Cancel' */
    cancelText?: React.ReactNode;
    /** Button `type` of the OK button. @default 'primary' */
    okType?: ButtonProps['type'];
    /** Extra props for the OK button. */
    okButtonProps?: ButtonProps;
    /** Extra props for the Cancel button. */
    cancelButtonProps?: ButtonProps;
    /** Show the OK button as loading. */
    confirmLoading?: boolean;
    /** @default 'small' */
    size?: 'small' | 'medium' | 'large' | 'full-width';
    /** Width in pixels or any CSS length. Overrides `size`. */
    width?: number | string;
    /** Center vertically. @default false */
    centered?: boolean;
    /** Show the × button. @default true */
    closable?: boolean;
    /** Close when the mask is clicked. @default true */
    maskClosable?: boolean;
    /** Close when Esc is pressed. @default true */
    closeOnEsc?: boolean;
    /** Unmount the content when closed. @default false */
    destroyOnClose?: boolean;
    /** @default 1000 */
    zIndex?: number;
    getPopupContainer?: () => HTMLElement;
    className?: string;
    bodyStyle?: React.CSSProperties;
    children?: React.ReactNode;
}

export default function Modal(props: ModalProps) {
    const {
        visible,
        title,
        footer,
        onOk,
        onCancel,
        afterClose,
        okText,
        cancelText,
        okType = 'primary',
        okButtonProps,
        cancelButtonProps,
        confirmLoading,
        size = 'small',
        width,
        centered = false,
        closable = true,
        maskClosable = true,
        closeOnEsc = true,
        destroyOnClose = false,
        zIndex = DEFAULT_Z_INDEX.modal,
        getPopupContainer,
        className,
        bodyStyle,
        children,
    } = props;
    const locale = { ok: 'OK', cancel: 'Cancel', close: 'Close', ...useConfig().locale?.Modal };
    const titleId = useId(`${prefixCls}-title`);
    const dialogRef = React.useRef<HTMLDivElement>(null);
    const [mounted, setMounted] = React.useState(visible);
    const [okLoading, setOkLoading] = React.useState(false);

    useScrollLock(visible);
    useFocusTrap(dialogRef, visible);

    React.useEffect(() => {
        if (visible) {
            setMounted(true);
        }
    }, [visible]);

    const handleAnimationEnd = () => {
        if (!visible) {
            afterClose?.();
            if (destroyOnClose) {
                setMounted(false);
            }
        }
    };

    const handleOk = async (event: React.MouseEvent<HTMLButtonElement>) => {
        const result = onOk?.(event);
        if (result && typeof (result as Promise<unknown>).then === 'function') {
            setOkLoading(true);
            try {
                await result;
            } finally {
                setOkLoading(false);
            }
        }
    };

    const handleKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
        if (closeOnEsc && event.key === 'Escape') {
            event.stopPropagation();
            onCancel?.(event);
        }
    };

    if (!mounted) {
        return null;
    }

    const defaultFooter = (
        <>
            <Button type="tertiary" {...cancelButtonProps} onClick={(event) => onCancel?.(event)}>
                {cancelText ?? locale.cancel}
            </Button>
            <Button type={okType} theme="solid" loading={confirmLoading || okLoading} {...okButtonProps} onClick={handleOk}>
                {okText ?? locale.ok}
            </Button>
        </>
    );

    return (
        <Portal getContainer={getPopupContainer}>
            <div className={cls(`${prefixCls}-root`, { [`${prefixCls}-hidden`]: !visible })} style={{ zIndex }} onKeyDown={handleKeyDown}>
                <div
                    className={`${prefixCls}-mask`}
                    aria-hidden="true"
                    onClick={maskClosable ? (event) => onCancel?.(event) : undefined}
                />
                <div className={cls(`${prefixCls}-wrap`, { [`${prefixCls}-wrap-centered`]: centered })}>
                    <div
                        ref={dialogRef}
                        role="dialog"
                        aria-modal="true"
                        aria-labelledby={title ? titleId : undefined}
                        tabIndex={-1}
                        className={cls(prefixCls, className, `${prefixCls}-${size}`)}
                        style={width !== undefined ? { width } : undefined}
                        onAnimationEnd={handleAnimationEnd}
                    >
                        {title || closable ? (
                            <div className={`${prefixCls}-header`}>
                                {title ? (
                                    <h2 id={titleId} className={`${prefixCls}-title`}>
                                        {title}
                                    </h2>
                                ) : null}
                                {closable ? (
                                    <button type="button" aria-label={locale.close} className={`${prefixCls}-close`} onClick={(event) => onCancel?.(event)} />
                                ) : null}
                            </div>
                        ) : null}
                        <div className={`${prefixCls}-body`} style={bodyStyle}>
                            {children}
                        </div>
                        {footer === null ? null : <div className={`${prefixCls}-footer`}>{footer ?? defaultFooter}</div>}
                    </div>
                </div>
            </div>
        </Portal>
    );
}
