import React from 'react';
import type { Meta, StoryObj } from '@storybook/react';
import Button from './index';

const meta: Meta<typeof Button> = {
    title: 'General/Button',
    component: Button,
    args: {
        children: 'Save changes',
        type: 'primary',
        theme: 'light',
        size: 'default',
    },
    argTypes: {
        type: { control: 'select', options: ['primary', 'secondary', 'tertiary', 'warning', 'danger'] },
        theme: { control: 'inline-radio', options: ['solid', 'light', 'outline', 'borderless'] },
        size: { control: 'inline-radio', options: ['small', 'default', 'large'] },
        onClick: { action: 'clicked' },
    },
};

export default meta;

type Story = StoryObj<typeof Button>;

export const Playground: Story = {};

export const Themes: Story = {
    render: (args) => (
        <div style={{ display: 'flex', gap: 8 }}>
            {(['solid', 'light', 'outline', 'borderless'] as const).map((theme) => (
                <Button key={theme} {...args} theme={theme}>
                    {theme}
                </Button>
            ))}
        </div>
    ),
};

export const Loading: Story = {
    args: { loading: true, children: 'Saving' },
};

export const IconOnly: Story = {
    args: { children: undefined, icon: <span aria-hidden="true">+</span>, 'aria-label': 'Add item' },
};

export const Group: Story = {
    render: () => (
        <Button.Group theme="outline" aria-label="Text alignment">
            <Button>Left</Button>
            <Button>Center</Button>
            <Button>Right</Button>
        </Button.Group>
    ),
};
