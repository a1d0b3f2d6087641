import React from 'react';
import { createRoot } from 'react-dom/client';
import Modal from './Modal';
import type { ModalProps } from './Modal';

export interface ConfirmOptions extends Omit<ModalProps, 'visible' | 'children' | 'footer'> {
    /** Body text. */
    content?: React.ReactNode;
    /** Icon before the title. */
    icon?: React.ReactNode;
    /** @default 'info' */
    type?: 'info' | 'success' | 'warning' | 'error' | 'confirm';
}

export interface ConfirmHandle {
    /** Close and unmount the dialog. */
    destroy: () => void;
    /** Change options of the open dialog. */
    update: (options: Partial<ConfirmOptions>) => void;
}

const openHandles = new Set<ConfirmHandle>();

/**
 * Open a confirmation dialog without rendering a `<Modal>` yourself.
 * The dialog closes after `onOk` resolves or after `onCancel`.
 */
export function confirm(initial: ConfirmOptions): ConfirmHandle {
    const container = document.createElement('div');
    document.body.appendChild(container);
    const root = createRoot(container);
    let options: ConfirmOptions = { ...initial };
    let visible = true;

    const render = () => {
        const { content, icon, type = 'info', onOk, onCancel, afterClose, ...rest } = options;
        root.render(
            <Modal
                size="small"
                {...rest}
                title={
                    <span className={`md-modal-confirm-title md-modal-confirm-${type}`}>
                        {icon}
                        {rest.title}
                    </span>
                }
                visible={visible}
                okType={type === 'error' || type === 'warning' ? 'danger' : 'primary'}
                onOk={async (event) => {
                    await onOk?.(event);
                    close();
                }}
                onCancel={(event) => {
                    onCancel?.(event);
                    close();
                }}
                afterClose={() => {
                    afterClose?.();
                    handle.destroy();
                }}
            >
                {content}
            </Modal>,
        );
    };

    function close() {
        visible = false;
        render();
    }

    const handle: ConfirmHandle = {
        destroy() {
            openHandles.delete(handle);
            root.unmount();
            container.remove();
        },
        update(next) {
            options = { ...options, ...next };
            render();
        },
    };

    openHandles.add(handle);
    render();
    return handle;
}

/** Close every dialog opened with `confirm()`, e.g. on route change. */
export function destroyAll(): void {
    Array.from(openHandles).forEach((handle) => handle.destroy());
}
